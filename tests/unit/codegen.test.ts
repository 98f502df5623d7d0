import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { generate } from "@graphql-codegen/cli";
import { GraphQLEnumType } from "graphql";
import config from "../../codegen.ts";
import {
  alertSeverityEnum,
  alertStatusEnum,
  equipmentPlatformEnum,
  equipmentStatusEnum,
  equipmentTypeEnum,
  planEnum,
  seatEnum,
  ticketPriorityEnum,
  ticketStatusEnum,
  tokenKindEnum,
} from "../../src/db/schema/enums.ts";
import { FEATURE_RESOLVERS } from "../../src/features.ts";
import { buildSchema } from "../../src/graphql/schema.ts";

const root = new URL("../../", import.meta.url);

test("the generated files are what `npm run codegen` writes from the SDL, operations and mappers", async () => {
  const outputs = (await generate({ ...config, cwd: root.pathname, silent: true }, false)) as {
    filename: string;
    content: string;
  }[];
  expect(
    outputs.length,
    "codegen.ts generates graphql.ts, schema.ts and the resolvers' types",
  ).toBe(3);
  for (const { filename, content } of outputs) {
    const committed = readFileSync(new URL(filename, root), "utf8");
    expect(
      committed === content,
      `${filename} is out of date with schema/, src/graphql/operations/ or mappers: run npm run codegen`,
    ).toBe(true);
  }
}, 30_000);

test("every Postgres enum has the values of the SDL enum it is derived from, in order", () => {
  const schema = buildSchema(FEATURE_RESOLVERS);
  const pairs = {
    Plan: planEnum,
    Seat: seatEnum,
    EquipmentType: equipmentTypeEnum,
    EquipmentPlatform: equipmentPlatformEnum,
    EquipmentStatus: equipmentStatusEnum,
    TicketStatus: ticketStatusEnum,
    TicketPriority: ticketPriorityEnum,
    AlertSeverity: alertSeverityEnum,
    AlertStatus: alertStatusEnum,
    EnrollmentTokenKind: tokenKindEnum,
  };
  for (const [name, pgEnum] of Object.entries(pairs)) {
    const sdl = schema.getType(name);
    expect(sdl, `${name} is an enum of the SDL`).toBeInstanceOf(GraphQLEnumType);
    const values = (sdl as GraphQLEnumType).getValues().map((value) => value.value);
    expect([...pgEnum.enumValues], `${pgEnum.enumName} = SDL ${name}`).toEqual(values);
  }
});
