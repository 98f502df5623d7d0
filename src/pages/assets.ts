import { Elysia } from "elysia";

/**
 * The pages' only style sheet and script, served by the service itself (CSP `default-src
 * 'self'` forbids inline code and other origins). The script only adds the copy button; every
 * page works without it.
 */
const CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
a{color:#0b57d0}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px}
.top{display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between;padding:12px 16px;background:#1b1f24;color:#fff}
.top a.brand{color:#fff;font-weight:700;text-decoration:none;font-size:1.1rem}
.top nav{display:flex;gap:12px;align-items:center}
.top .who{opacity:.85}
.top button.link,.top nav a{color:#fff}
main{max-width:1100px;margin:0 auto;padding:16px}
h1{font-size:1.5rem;margin:.2em 0 .6em}
h2{font-size:1.15rem;margin:1.2em 0 .5em}
.card{background:#fff;border:1px solid #d8dbe0;border-radius:8px;padding:16px;margin-bottom:16px}
.narrow{max-width:440px;margin:24px auto}
.card>:first-child{margin-top:0}
label{display:block;font-weight:600;margin:.6em 0 .2em}
input[type=text],input[type=email],input[type=password],input[type=number],select,textarea{width:100%;max-width:440px;padding:8px 10px;font:inherit;border:1px solid #8a9099;border-radius:6px;background:#fff}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
button,.button{display:inline-block;font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #0b57d0;background:#0b57d0;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#0b57d0}
button.danger{background:#b3261e;border-color:#b3261e}
button.link{background:none;border:none;padding:0;color:#0b57d0;text-decoration:underline}
form.inline{display:inline}
fieldset{border:1px solid #d8dbe0;border-radius:6px;margin:.6em 0;padding:8px 12px}
legend{font-weight:600;padding:0 4px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.scope-picker{border:none;padding:0;margin:1em 0}
.scope-picker legend{padding:0}
.scope-group{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:6px 16px;padding:10px 0;border-top:1px solid #e3e5e8}
.scope-about{display:flex;flex-direction:column;flex:1 1 220px;min-width:0}
.scope-name{font-weight:600}
.scope-choices{display:grid;grid-template-columns:repeat(2,96px);gap:8px}
.choice.write{grid-column:2}
.choice{display:inline-flex;align-items:center;gap:8px;min-height:44px;margin:0;padding:0 14px;border:1px solid #d8dbe0;border-radius:6px;font-weight:400;cursor:pointer;background:#fff}
.choice input{width:20px;height:20px;margin:0;accent-color:#0b57d0}
.choice:has(input:checked){border-color:#0b57d0;background:#e8f0fe}
.key-name{display:block;overflow-wrap:anywhere}
.key-meta{display:block;color:#555;font-size:.85rem}
.scope-list{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px}
.scope-list code{background:#eef1f5;border-radius:4px;padding:1px 6px;white-space:nowrap}
time{white-space:nowrap}
.empty p{margin:.3em 0}
.actions{margin-top:12px;display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.alert{padding:10px 12px;border-radius:6px;margin:0 0 12px}
.alert.error{background:#fdecea;border:1px solid #f5c2c0;color:#8c1d18}
.alert.ok{background:#e6f4ea;border:1px solid #b7dfc2;color:#0d5124}
.secret{background:#fff8e1;border:1px solid #f1d27a}
.secret input{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;max-width:100%}
.hint{color:#555;font-size:.9rem;margin:.2em 0}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px;border-bottom:1px solid #e3e5e8;vertical-align:top}
th{font-size:.85rem;color:#555}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
.status{font-size:.8rem;padding:2px 8px;border-radius:10px;background:#e3e5e8;white-space:nowrap}
.status.active{background:#e6f4ea;color:#0d5124}.status.revoked{background:#fdecea;color:#8c1d18}
.status.rotated,.alert.warning{background:#fff8e1;color:#5c4400}.alert.warning{border:1px solid #f1d27a}.flag{color:#8c1d18}
td[data-label=Actions] a{display:block;white-space:nowrap;margin-bottom:2px}
.home .links{padding-left:1.2em}.home .links li{margin:.4em 0}.home .links .hint{display:block}
.picker{display:flex;gap:8px;align-items:end;flex-wrap:wrap}.picker label{margin:0}
@media (max-width:900px){
  table,thead,tbody,tr,th,td{display:block}
  thead{position:absolute;left:-9999px}
  tr{display:grid;grid-template-columns:1fr 1fr;gap:2px 12px;border:1px solid #d8dbe0;border-radius:6px;margin-bottom:10px;padding:8px;background:#fff}
  td{border:none;padding:4px 6px;min-width:0}
  td::before{content:attr(data-label);display:block;font-size:.75rem;color:#555;font-weight:600}
  td[data-label=Key],td[data-label=Scopes]{grid-column:1/-1}
  td[data-label=Key]::before,td[data-label=Actions]::before{content:none}
  td[data-label=Actions]{align-self:end}
}
`;

const JS = `document.querySelectorAll("[data-copy]").forEach(function (button) {
  var field = document.getElementById(button.getAttribute("data-copy"));
  if (!field || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(field.value).then(function () {
      button.textContent = "Copied";
    });
  });
});
`;

const asset = (type: string, body: string) => () =>
  new Response(body, {
    headers: {
      "content-type": type,
      "cache-control": "public, max-age=3600",
      "x-content-type-options": "nosniff",
    },
  });

export const assetRoutes = () =>
  new Elysia({ name: "settings-assets" })
    .get("/assets/settings.css", asset("text/css; charset=utf-8", CSS), { detail: { hide: true } })
    .get("/assets/settings.js", asset("text/javascript; charset=utf-8", JS), {
      detail: { hide: true },
    });
