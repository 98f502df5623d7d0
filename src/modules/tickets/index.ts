import { defineFeature } from "../feature.ts";
import { ticketEvents } from "./events.ts";
import { ticketResolvers } from "./resolvers.ts";
import { ticketExtensionRoutes, ticketRoutes } from "./rest.ts";
import { TicketService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    tickets: TicketService;
  }
}

/** The tickets feature: support tickets. */
export const tickets = defineFeature({
  name: "tickets",
  routes: ({ auth, idempotency, infra }) => [
    ticketRoutes({ auth, idempotency, publicBaseUrl: infra.config.publicBaseUrl }),
    ticketExtensionRoutes({ auth, idempotency, publicBaseUrl: infra.config.publicBaseUrl }),
  ],
  resolvers: ticketResolvers,
  services: { tickets: ({ database, now, live }) => new TicketService(database, now, live) },
  events: Object.values(ticketEvents),
  openapi: {
    operationIds: {
      "GET /api/v1/tickets": "listTickets",
      "POST /api/v1/tickets": "createTicket",
      "GET /api/v1/tickets/{id}": "getTicket",
      "PATCH /api/v1/tickets/{id}": "updateTicket",
      "GET /api/v1/tickets/{id}/comments": "listTicketComments",
      "POST /api/v1/tickets/{id}/comments": "addTicketComment",
    },
    tags: {
      tickets: "Interface A: support tickets (snake_case fields, unlike the other records)",
      extensions:
        "Interface A beyond the original routes: read one ticket, alert or equipment record, change it " +
        '(ETag: "<version>", If-Match → 412), comment on tickets, move alerts, retire equipment',
    },
  },
});
