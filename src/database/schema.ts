/**
 * The tables, as Kysely sees them. Repositories turn these rows into API shapes, so a
 * column never reaches a response by accident.
 *
 * Integer columns are typed `bigint | number | string` on read: SQLite answers BigInt
 * (safeIntegers is on, see connect.ts) and PostgreSQL answers int8 as a string.
 * `toApiInt` (src/http/int64.ts) turns all three into API integers.
 */
import type { ColumnType, Selectable } from 'kysely'

type Int64 = ColumnType<bigint | number | string, bigint | number, bigint | number>
type Int64Id = ColumnType<bigint | number | string, never, never>

export interface PetTable {
  id: Int64Id
  name: string
  category_id: Int64
  status: 'available' | 'pending' | 'sold' | null
}

export interface OrderTable {
  id: Int64Id
  pet_id: Int64
  quantity: ColumnType<bigint | number, number, number>
  /** RFC 3339, as the client sent it. */
  ship_date: string | null
  /** 0 or 1: the one boolean both databases store alike. */
  complete: ColumnType<bigint | number, number, number>
}

export interface IdempotencyKeyTable {
  /** The API key that made the request: keys never share idempotency keys. */
  api_key_hash: string
  idempotency_key: string
  /** SHA-256 of the operation and the request body as a JSON value. */
  request_hash: string
  status_code: ColumnType<bigint | number, number, number>
  /** The first answer's body, byte for byte. */
  response_body: string
  /** Milliseconds since the epoch. */
  expires_at: ColumnType<bigint | number | string, number, number>
}

export interface ApiKeyTable {
  id: Int64Id
  name: string
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string
  /** The first characters of the key, so a person can tell keys apart. */
  key_prefix: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

export interface Database {
  pets: PetTable
  orders: OrderTable
  idempotency_keys: IdempotencyKeyTable
  api_keys: ApiKeyTable
}

export type PetRow = Selectable<PetTable>
export type OrderRow = Selectable<OrderTable>
export type ApiKeyRow = Selectable<ApiKeyTable>
