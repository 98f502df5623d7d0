/** Operator mutations as an integrator would send them to /graphql. */
export const CREATE_ORG = `mutation($input: CreateOrganizationInput!) {
  createOrganization(input: $input) { id name plan dailyQuota unlimitedQuota createdAt }
}`;
export const CREATE_USER = `mutation($input: CreateUserInput!) {
  createUser(input: $input) { id email firstName lastName }
}`;
export const ADD_MEMBER = `mutation($input: AddMemberInput!) {
  addMember(input: $input) { organizationId userId role }
}`;
export const CREATE_KEY = `mutation($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { secret apiKey { id name scopes expiresAt prefix } }
}`;
export const CREATE_ROLE = `mutation($input: CreateRoleInput!) {
  createRole(input: $input) { id name seat permissions }
}`;
export const ADD_INGEST = `mutation($input: AddIngestSourceInput!) {
  addIngestSource(input: $input) { id cidr label }
}`;
export const CREATE_RELEASE = `mutation($input: CreateAgentReleaseInput!) {
  createAgentRelease(input: $input) { id version platform architecture channel releasedAt downloadUrl sha256 }
}`;
