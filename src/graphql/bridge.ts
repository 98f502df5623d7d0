import type { Member, Principal } from "../auth/principal.ts";
import { createContext, type GraphQLDeps } from "./context.ts";
import type { OperationExecutor } from "./executor.ts";
import type { Operation, RunOperation } from "./operations.ts";

/**
 * The REST→GraphQL bridge: REST routes and the settings pages run their pre-parsed operations
 * in-process, against the one schema, as the caller they authenticated. The rules (scopes,
 * permissions, organization isolation) stay in the resolvers and services.
 */
export class OperationBridge {
  constructor(
    private readonly executor: OperationExecutor,
    private readonly deps: GraphQLDeps,
  ) {}

  /** `run` for a request authenticated by an API key (built once per request). */
  forKey(principal: Principal): RunOperation {
    return this.runner(createContext(this.deps, { principal }));
  }

  /** `run` for a person signed in to the settings screen. */
  forMember(member: Member): RunOperation {
    return this.runner(createContext(this.deps, { member }));
  }

  private runner(context: ReturnType<typeof createContext>): RunOperation {
    const { executor } = this;
    return (<Result, Variables>(operation: Operation<Result, Variables>, variables?: Variables) =>
      executor.run(operation, context, variables)) as RunOperation;
  }
}
