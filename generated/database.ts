// Generated from migrations/ by `npm run codegen` (kysely-codegen, on a freshly migrated
// SQLite database; scripts/lib/database-types.ts). Do not edit.

import type { ColumnType } from "kysely";

export type Generated<T> = T extends ColumnType<infer S, infer I, infer U>
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;

export type Int64 = ColumnType<bigint | number | string, bigint | number, bigint | number>;

export interface ApiKeys {
  created_at: string;
  expires_at: string | null;
  id: Generated<Int64>;
  key_hash: string;
  key_prefix: string;
  last_used_at: string | null;
  name: string;
  replaced_at: string | null;
  revoked_at: string | null;
  scopes: Generated<string>;
}

export interface Categories {
  description: string | null;
  id: Generated<Int64>;
  name: string;
  name_key: string;
}

export interface Events {
  data: string;
  id: string;
  occurred_at: string;
  previous: string | null;
  sequence: Generated<Int64>;
  trace_context: string | null;
  transaction_id: Int64 | null;
  type: string;
}

export interface EventStreamPositions {
  destination: string;
  holder: string | null;
  lease_until: string | null;
  position: Int64;
}

export interface IdempotencyKeys {
  api_key_hash: string;
  expires_at: Int64;
  idempotency_key: string;
  request_hash: string;
  response_body: string;
  status_code: Int64;
}

export interface Orders {
  complete: Int64;
  id: Generated<Int64>;
  pet_id: Int64;
  quantity: Int64;
  ship_date: string | null;
}

export interface Pets {
  category_id: Int64;
  id: Generated<Int64>;
  name: string;
  status: string | null;
}

export interface RowChanges {
  changed_at: Generated<Int64>;
  position: Generated<Int64>;
  row_id: Int64;
  table_name: string;
}

export interface WebhookDeliveries {
  attempt: Int64;
  attempted_at: string | null;
  duration_ms: Int64 | null;
  endpoint_id: Int64;
  error: string | null;
  event_id: string;
  first_attempt: Int64;
  id: Generated<Int64>;
  lease_until: string | null;
  next_attempt_at: string | null;
  outcome: string;
  response_status: Int64 | null;
}

export interface WebhookEndpoints {
  created_at: string;
  description: string | null;
  enabled: Int64;
  events: string;
  failing_since: string | null;
  id: Generated<Int64>;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  secret: string;
  url: string;
}

export interface WebhookSubscriptions {
  endpoint_id: Int64;
  selection: string;
}

export interface DB {
  api_keys: ApiKeys;
  categories: Categories;
  event_stream_positions: EventStreamPositions;
  events: Events;
  idempotency_keys: IdempotencyKeys;
  orders: Orders;
  pets: Pets;
  row_changes: RowChanges;
  webhook_deliveries: WebhookDeliveries;
  webhook_endpoints: WebhookEndpoints;
  webhook_subscriptions: WebhookSubscriptions;
}
