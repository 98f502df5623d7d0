/**
 * The GraphQL operations behind the REST routes. Each is validated against the schema at
 * start-up (see executor.ts); a REST route selects exactly the fields its JSON shows.
 */
export const operations = {
  Whoami: /* GraphQL */ `
    query Whoami {
      whoami {
        organization { id name }
        user { id role }
        apiKey { name scopes expiresAt }
      }
    }
  `,
  Health: /* GraphQL */ `
    query Health {
      health { status }
    }
  `,
} as const;
