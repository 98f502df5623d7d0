import type { Principal } from "../auth/principal.ts";
import type { Member } from "../modules/settings/service.ts";
import type { Services } from "../services.ts";
import { createContext } from "./context.ts";
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
    private readonly services: Services,
  ) {}

  /** `run` for a request authenticated by an API key (built once per request). */
  forKey(principal: Principal): RunOperation {
    return this.runner(createContext(this.services, { principal }));
  }

  /** `run` for a person signed in to the settings screen. */
  forMember(member: Member): RunOperation {
    return this.runner(createContext(this.services, { member }));
  }

  private runner(context: ReturnType<typeof createContext>): RunOperation {
    const { executor } = this;
    return (<Result, Variables>(operation: Operation<Result, Variables>, variables?: Variables) =>
      executor.run(operation, context, variables)) as RunOperation;
  }
}
