// Generated from the files of migrations/ by `npm run codegen`. Do not edit.
// The service applies these, in this order, and refuses to start while a file of
// migrations/ is missing here (src/database/migration-files.ts).

import type { Migration } from 'kysely'
import * as m20261122000000_create_pets from '../migrations/20261122000000_create_pets.ts'
import * as m20261122000100_create_api_keys from '../migrations/20261122000100_create_api_keys.ts'
import * as m20261122000200_unique_active_key_names from '../migrations/20261122000200_unique_active_key_names.ts'
import * as m20261122000300_create_orders from '../migrations/20261122000300_create_orders.ts'
import * as m20261122000400_create_idempotency_keys from '../migrations/20261122000400_create_idempotency_keys.ts'
import * as m20261124000000_index_open_orders_by_pet from '../migrations/20261124000000_index_open_orders_by_pet.ts'
import * as m20261124000100_key_scopes_and_expiry from '../migrations/20261124000100_key_scopes_and_expiry.ts'
import * as m20261126000000_create_events from '../migrations/20261126000000_create_events.ts'
import * as m20261127000000_index_numbered_events_only from '../migrations/20261127000000_index_numbered_events_only.ts'
import * as m20261128000000_create_webhooks from '../migrations/20261128000000_create_webhooks.ts'
import * as m20261129000000_add_event_trace_context from '../migrations/20261129000000_add_event_trace_context.ts'
import * as m20261130000000_record_row_changes from '../migrations/20261130000000_record_row_changes.ts'
import * as m20261201000000_create_categories from '../migrations/20261201000000_create_categories.ts'
import * as m20261201000100_index_pets_by_category from '../migrations/20261201000100_index_pets_by_category.ts'
import * as m20261202000000_create_event_stream_positions from '../migrations/20261202000000_create_event_stream_positions.ts'

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '20261122000000_create_pets': m20261122000000_create_pets,
  '20261122000100_create_api_keys': m20261122000100_create_api_keys,
  '20261122000200_unique_active_key_names': m20261122000200_unique_active_key_names,
  '20261122000300_create_orders': m20261122000300_create_orders,
  '20261122000400_create_idempotency_keys': m20261122000400_create_idempotency_keys,
  '20261124000000_index_open_orders_by_pet': m20261124000000_index_open_orders_by_pet,
  '20261124000100_key_scopes_and_expiry': m20261124000100_key_scopes_and_expiry,
  '20261126000000_create_events': m20261126000000_create_events,
  '20261127000000_index_numbered_events_only': m20261127000000_index_numbered_events_only,
  '20261128000000_create_webhooks': m20261128000000_create_webhooks,
  '20261129000000_add_event_trace_context': m20261129000000_add_event_trace_context,
  '20261130000000_record_row_changes': m20261130000000_record_row_changes,
  '20261201000000_create_categories': m20261201000000_create_categories,
  '20261201000100_index_pets_by_category': m20261201000100_index_pets_by_category,
  '20261202000000_create_event_stream_positions': m20261202000000_create_event_stream_positions
}
