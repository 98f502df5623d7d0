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
  ListProjects: /* GraphQL */ `
    query ListProjects($page: Int, $limit: Int) {
      projects(page: $page, limit: $limit) {
        data { id name createdAt }
        pagination { page limit total }
      }
    }
  `,
  GetProject: /* GraphQL */ `
    query GetProject($id: ID!) {
      project(id: $id) { id name description createdAt updatedAt }
    }
  `,
  CreateProject: /* GraphQL */ `
    mutation CreateProject($input: CreateProjectInput!) {
      createProject(input: $input) { id name description createdAt }
    }
  `,
  UpdateProject: /* GraphQL */ `
    mutation UpdateProject($id: ID!, $input: UpdateProjectInput!) {
      updateProject(id: $id, input: $input) { id name description createdAt updatedAt }
    }
  `,
  DeleteProject: /* GraphQL */ `
    mutation DeleteProject($id: ID!) {
      deleteProject(id: $id) { success message }
    }
  `,
} as const;
