/**
 * Categories in the database. Plain functions taking `db` first; rows become API
 * Categories here. Each write records its event in its transaction (../events/outbox.ts).
 *
 * Names are unique as people read them: compared once in Unicode NFC and case-folded
 * (`nameKey`), kept in `name_key`, whose unique index holds whoever writes. The writes
 * look for a holder of the name first, to answer which category has it.
 */
import { sql, type Kysely, type Selectable } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { isPostgres } from '../../database/connect.ts'
import { inTransaction } from '../../database/group-commit.ts'
import { prepare } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage, type Page } from '../../contract/paging.ts'
import { changedFields, recordEvents } from '../events/outbox.ts'

type Category = components['schemas']['Category']
type NewCategory = components['schemas']['NewCategory']
type CategoryPatch = components['schemas']['CategoryPatch']
type CategoryRow = Selectable<Database['categories']>
type Id = number | bigint

/**
 * The form names are compared in: NFC, then case-folded by upper- then lower-casing, so
 * that "STRASSE" and "straße", or a final and a medial sigma, are one name.
 */
export function nameKey (name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC')
}

export function toCategory (row: CategoryRow): Category {
  const category: Category = { id: toApiInt(row.id), name: row.name }
  // No description is a missing key, never `null`, as for a pet's status.
  if (row.description !== null) category.description = row.description
  return category
}

const selectCategory = prepare<{ id: Id }, CategoryRow>((db, param) =>
  db.selectFrom('categories').selectAll().where('id', '=', param('id')))

const selectByKey = prepare<{ key: string }, { id: CategoryRow['id'] }>((db, param) =>
  db.selectFrom('categories').select('id').where('name_key', '=', param('key')))

const selectPage = prepare<{ afterId: Id, limit: number }, CategoryRow>((db, param) =>
  db.selectFrom('categories').selectAll().where('id', '>', param('afterId')).orderBy('id').limit(param('limit')))

/**
 * PostgreSQL: category writes one at a time. Two instances then cannot both find a name
 * free, and ids commit in the order they are given, so a reader paging by id never passes
 * one that commits later with a lower id. Writes of categories are rare.
 */
async function oneWriterAtATime (trx: Kysely<Database>): Promise<void> {
  if (isPostgres(trx)) await sql`lock table categories in share row exclusive mode`.execute(trx)
}

/** The category other than `self` that has the name `name`, if any. */
async function holderOf (trx: Kysely<Database>, name: string, self?: Id): Promise<Id | undefined> {
  const holder = (await selectByKey(trx, { key: nameKey(name) })).rows[0]
  if (holder === undefined) return undefined
  const id = toApiInt(holder.id)
  return self !== undefined && String(id) === String(self) ? undefined : id
}

export type CategoryWrite =
  | { outcome: 'written', category: Category }
  | { outcome: 'taken', holderId: Id }

/** Adds a category, with its `category.created` event; 'taken' when another has its name. */
export function createCategory (db: Kysely<Database>, category: NewCategory): Promise<CategoryWrite> {
  return inTransaction(db, async (trx): Promise<CategoryWrite> => {
    await oneWriterAtATime(trx)
    const holderId = await holderOf(trx, category.name)
    if (holderId !== undefined) return { outcome: 'taken', holderId }
    const row = await trx.insertInto('categories')
      .values({ name: category.name, name_key: nameKey(category.name), description: category.description ?? null })
      .returningAll().executeTakeFirstOrThrow()
    const created = toCategory(row)
    await recordEvents(trx, [{ type: 'category.created', data: created }])
    return { outcome: 'written', category: created }
  })
}

export async function findCategory (db: Kysely<Database>, id: Id): Promise<Category | undefined> {
  const row = (await selectCategory(db, { id })).rows[0]
  return row === undefined ? undefined : toCategory(row)
}

/** Up to `limit` categories after `afterId`, in ascending id order, and whether more follow. */
export async function listCategories (db: Kysely<Database>, query: { afterId: Id, limit: number }): Promise<Page<Category>> {
  // One row more than asked tells whether a next page exists without a COUNT.
  const { rows } = await selectPage(db, { afterId: query.afterId, limit: query.limit + 1 })
  return toPage(rows, query.limit, toCategory)
}

export type CategoryUpdate = CategoryWrite | { outcome: 'missing' | 'precondition_failed' }

/**
 * Applies a merge patch to a category, in one transaction with its `category.updated`
 * event: nothing changes unless `precondition` holds for the category as it is, nor when
 * another category has the new name. A patch that changes nothing writes nothing.
 */
export function updateCategory (db: Kysely<Database>, id: Id, patch: CategoryPatch, precondition: (current: Category) => boolean): Promise<CategoryUpdate> {
  return inTransaction(db, async (trx): Promise<CategoryUpdate> => {
    await oneWriterAtATime(trx)
    const row = (await selectCategory(trx, { id })).rows[0]
    if (row === undefined) return { outcome: 'missing' }
    const current = toCategory(row)
    if (!precondition(current)) return { outcome: 'precondition_failed' }
    const name = patch.name ?? row.name
    const description = patch.description === undefined ? row.description : patch.description
    if (name === row.name && description === row.description) return { outcome: 'written', category: current }
    if (name !== row.name) {
      const holderId = await holderOf(trx, name, id)
      if (holderId !== undefined) return { outcome: 'taken', holderId }
    }
    const updated = toCategory(await trx.updateTable('categories')
      .set({ name, name_key: nameKey(name), description })
      .where('id', '=', id).returningAll().executeTakeFirstOrThrow())
    const previous = changedFields(current, updated)
    if (previous !== undefined) await recordEvents(trx, [{ type: 'category.updated', data: updated, previous }])
    return { outcome: 'written', category: updated }
  })
}

/** Removes a category, with its `category.deleted` event; false when there is none. Its pets stay as they are. */
export function deleteCategory (db: Kysely<Database>, id: Id): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const row = await trx.deleteFrom('categories').where('id', '=', id).returningAll().executeTakeFirst()
    if (row === undefined) return false
    await recordEvents(trx, [{ type: 'category.deleted', data: toCategory(row) }])
    return true
  })
}
