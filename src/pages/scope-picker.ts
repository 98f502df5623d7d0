import { SCOPES } from "../auth/permissions.ts";
import { type Html, html } from "./html.ts";

/**
 * The scopes of a new key, grouped by resource as GitHub's fine-grained token page does: one
 * row per resource with what it covers, and a Read and a Write choice. The form still posts
 * plain `scopes` values, so the API and the page accept the same thing.
 */
const RESOURCES: Record<string, { label: string; about: string }> = {
  equipment: { label: "Equipment", about: "Devices, their status and install links" },
  tickets: { label: "Tickets", about: "Support tickets: read them, create and update them" },
  alerts: { label: "Alerts", about: "Monitoring alerts: read them, acknowledge and resolve them" },
  users: { label: "Members", about: "The organization's members and their roles" },
  dashboards: { label: "Dashboards", about: "Dashboard data" },
  automations: { label: "Automations", about: "Automation rules" },
  projects: { label: "Projects", about: "Projects: read, create, update and delete them" },
  webhooks: { label: "Webhooks", about: "Webhook subscriptions and their delivery log" },
  audit: { label: "Audit log", about: "Who used which key, when and from where" },
};

const ACTIONS: Record<string, string> = { read: "Read", write: "Write" };

interface Group {
  resource: string;
  label: string;
  about: string;
  scopes: string[];
}

function groups(): Group[] {
  const byResource = new Map<string, string[]>();
  for (const scope of SCOPES) {
    const resource = scope.split(":")[0] as string;
    byResource.set(resource, [...(byResource.get(resource) ?? []), scope]);
  }
  return [...byResource].map(([resource, scopes]) => ({
    resource,
    label: RESOURCES[resource]?.label ?? resource[0]?.toUpperCase() + resource.slice(1),
    about: RESOURCES[resource]?.about ?? "",
    scopes,
  }));
}

export function scopePicker(chosen: ReadonlySet<string>): Html {
  return html`<fieldset class="scope-picker" aria-describedby="scopes-hint">
  <legend>Permissions</legend>
  <p class="hint" id="scopes-hint">Choose at least one. A key can never do more than you can.</p>
  ${groups().map(
    (group) => html`<div class="scope-group" role="group" aria-labelledby="scope-${group.resource}">
    <div class="scope-about">
      <span class="scope-name" id="scope-${group.resource}">${group.label}</span>
      ${group.about ? html`<span class="hint">${group.about}</span>` : ""}
    </div>
    <div class="scope-choices">${group.scopes.map((scope) => {
      const action = scope.split(":")[1] as string;
      return html`<label class="choice ${action}"><input type="checkbox" name="scopes" value="${scope}"${chosen.has(scope) ? html` checked` : ""} data-testid="key-scope-${scope}"> ${ACTIONS[action] ?? action}<span class="sr-only"> (${scope})</span></label>`;
    })}</div>
  </div>`,
  )}
</fieldset>`;
}
