// Generated from spec/openapi.yaml by `npm run codegen`. Do not edit.

export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pets
         * @description Returns a page of pets in ascending `id` order. A pet created without a
         *     `status` never matches a `status` filter. `categoryId` keeps the pets of one
         *     category, alone or with `status`; it is compared as a number, whether or not such
         *     a category exists (see `getCategory`). When more pets follow, the `Link` header
         *     names the next page.
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add a pet
         * @description Adds a pet and returns it with its assigned `id`. Ids increase and are never
         *     reused. A pet created without `status` has no `status` (no default is applied).
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a pet (deprecated)
         * @deprecated
         * @description Returns one pet. **Deprecated** since 22 November 2026 and removed on
         *     5 December 2030: use `GET /pets` with the `status` filter instead. Every
         *     answer carries the `Deprecation`, `Sunset` and successor `Link` headers; from
         *     the sunset instant on, the operation answers `410 gone`.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit a pet
         * @description Edits a pet with a JSON merge patch (RFC 7396), sent as
         *     `application/merge-patch+json` (`application/json` is read as the same patch): the
         *     fields given replace the pet's, the others stay. `name`, `categoryId` and `status`
         *     follow the rules of `POST /pets`; `"status": null` removes the status, while `null`
         *     for `name` or `categoryId` is `400 invalid_request`, as are unknown fields (`id`
         *     included) and a body that is not an object. `{}` changes nothing. Answers the whole
         *     pet with its new `ETag`, the one `GET /pets/{petId}` then serves.
         *
         *     With `If-Match`, the edit is made only if the pet's current `ETag` is one of those
         *     given (`*` matches any pet); otherwise `412 precondition_failed`, and nothing changes.
         *     The status set here is the operator's word and skips the order rules, except while
         *     an open (not complete) order holds the pet: a patch that would change its status is
         *     `409 conflict` naming the order, and nothing changes (its name and category can
         *     still be edited).
         */
        patch: operations["updatePet"];
        trace?: never;
    };
    "/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List categories
         * @description Returns a page of categories in ascending `id` order, oldest first, with the same
         *     `limit`, `cursor` and `Link` paging as `GET /pets`.
         */
        get: operations["listCategories"];
        put?: never;
        /**
         * Add a category
         * @description Adds a category and returns it with its assigned `id`. Ids increase and are never
         *     reused. Names are unique: a name equal to another category's once both are in
         *     Unicode NFC and case-folded ("dogs", "DOGS" and "Dogs" are one name) is
         *     `409 conflict`, naming the category that has it. The name is stored and returned
         *     exactly as sent.
         *
         *     Pets are not checked against categories: a pet may name a category that does not
         *     exist (yet, or any more), as it always could. A client that wants strict categories
         *     checks with `GET /categories/{categoryId}` first.
         */
        post: operations["createCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories/{categoryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a category
         * @description Returns one category, with its `ETag`: send it back in `If-None-Match` and a
         *     category that has not changed is `304 Not Modified`. A deleted category is `404`.
         */
        get: operations["getCategory"];
        put?: never;
        post?: never;
        /**
         * Remove a category
         * @description Removes a category: it is gone afterwards (`GET` and a second `DELETE` are `404`),
         *     and its id is never given to another. Its pets are left as they are, with their
         *     `categoryId`, and `GET /pets?categoryId=` still finds them; its name is free for a
         *     new category.
         */
        delete: operations["deleteCategory"];
        options?: never;
        head?: never;
        /**
         * Edit a category
         * @description Edits a category with a JSON merge patch (RFC 7396), sent as
         *     `application/merge-patch+json` (`application/json` is read as the same patch): the
         *     fields given replace the category's, the others stay. `name` and `description`
         *     follow the rules of `POST /categories`; `"description": null` removes the
         *     description, while `"name": null`, unknown fields (`id` included) and a body that is
         *     not an object are `400 invalid_request`. `{}` changes nothing. A new name another
         *     category has is `409 conflict`; a change of case of the category's own name is
         *     fine. Answers the whole category with its new `ETag`. Its pets are not touched.
         *
         *     With `If-Match`, the edit is made only if the category's current `ETag` is one of
         *     those given (`*` matches any category); otherwise `412 precondition_failed`, and
         *     nothing changes.
         */
        patch: operations["updateCategory"];
        trace?: never;
    };
    "/store/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders
         * @description Returns a page of orders in ascending `id` order, oldest first, with the same
         *     `limit`, `cursor` and `Link` paging as `GET /pets`. Cancelled orders are not listed.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Place an order
         * @description Places an order for a pet and returns it with its assigned `id`. `petId` must name
         *     an existing pet, else `400 invalid_request` naming `petId`. `quantity` defaults to
         *     1 and `complete` to false.
         *
         *     A pet is one animal: the order reserves it. The pet must be `available` at that
         *     instant, and becomes `pending` (or `sold`, for an order placed with
         *     `complete: true`) in the same transaction as the order, so a pet is never sold
         *     twice, however many clients order it at once. A pet that is `pending`, `sold` or
         *     has no status is not for sale: `409 conflict`, and nothing is written. A retry with
         *     the same `Idempotency-Key` replays the first answer without checking again.
         */
        post: operations["placeOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an order
         * @description Returns one order, with its `ETag`: send it back in `If-None-Match` and an order
         *     that has not changed is `304 Not Modified`. A cancelled order is `404`.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        /**
         * Cancel an order
         * @description Cancels an order that is not complete: it is gone afterwards (no longer listed,
         *     and cancelling it again is `404`), and its pet is `available` again, in the same
         *     transaction. An order that is complete (already shipped) cannot be cancelled:
         *     `409 conflict`.
         */
        delete: operations["cancelOrder"];
        options?: never;
        head?: never;
        /**
         * Update an order
         * @description Changes an order's `shipDate` and `complete` with a JSON merge patch (RFC 7396),
         *     sent as `application/merge-patch+json` (`application/json` is accepted as the same
         *     patch). A field left out is left as it is; `"shipDate": null` removes the ship
         *     date; `{}` changes nothing. `complete` may go from false to true only: completing
         *     an order marks its pet `sold`, in the same transaction; `"complete": false` on a
         *     complete order is `409 conflict`, and `"complete": true` on one changes nothing.
         *     Answers the whole order as it now is.
         */
        patch: operations["updateOrder"];
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the event feed
         * @description Every change to a pet, a category or an order is an event, of one of the types this
         *     document declares under `webhooks` (`pet.created`, `pet.updated`, `category.created`,
         *     `category.updated`, `category.deleted`, `order.placed`, `order.updated`,
         *     `order.cancelled`). The feed lists them oldest first by `sequence`,
         *     which increases in the order the changes committed; the events of one change are
         *     consecutive (a placed order, then its pet's `pet.updated`). A request that changes
         *     nothing makes no event.
         *
         *     Paging is that of every list (`limit`, `cursor`), except that **every page carries a
         *     `Link` to the page after it**, the last and an empty one included: keep following it
         *     and you never miss an event nor see one twice, even while several instances of the
         *     service write. With `wait`, an empty page waits up to that many seconds for the next
         *     event, and answers as soon as one commits (or `200 []` with the same `Link` when the
         *     wait ends). Events are kept 30 days; a cursor older than that starts at the oldest
         *     event kept.
         *
         *     An event is shown only to a key that may also read its resource (`pets:read` for
         *     `pet.*`, `categories:read` for `category.*`, `orders:read` for `order.*`, as each
         *     webhook's `x-read-scope` says): the feed leaves out the others, and a `type` the key may not read is
         *     `403 insufficient_scope`, naming the scope.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an event
         * @description Returns one event of the feed, with its `ETag`. An event older than the 30 days
         *     events are kept is `404`; one whose resource the key may not read (`x-read-scope` of
         *     its type) is `403 insufficient_scope`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The webhook endpoints, oldest first, paged like every list. Never with their secrets.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description Subscribes a URL to events: from now on, every event of a type it selects is sent to
         *     it with `POST`, signed as Standard Webhooks (standardwebhooks.com) defines, retried until it
         *     answers `2xx` (10 attempts over about three days, by default). `events` lists event
         *     types, `pet.*`, `category.*` or `order.*` (every
         *     type of that resource) or `*` (every type); a type this document does not declare is
         *     `400 invalid_request`.
         *
         *     The URL must be `https` and its host must resolve only to public addresses: a
         *     loopback, private, link-local, shared (CGNAT), multicast, reserved or cloud metadata
         *     address, a scheme other than `https`, or anything that is no URL is
         *     `400 invalid_webhook_url`, saying why. The operator may allow chosen networks
         *     (`WEBHOOK_ALLOWED_NETWORKS`), where plain `http` is allowed too.
         *
         *     The answer holds the endpoint's signing **secret**, which is shown here and on
         *     rotation only: keep it. There may be at most 50 endpoints (the operator's
         *     `WEBHOOK_MAX_ENDPOINTS`), enabled or not: one more is `409 conflict`.
         *
         *     An endpoint receives each event's data, so the key also needs the read scope of every
         *     resource its `events` reach (`pets:read` for `pet.*`, `categories:read` for
         *     `category.*`, `orders:read` for `order.*`, all three for `*`): `403 insufficient_scope` otherwise, naming what is missing.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description Returns one endpoint, without its secret.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Remove a webhook endpoint
         * @description Removes an endpoint and its deliveries log: nothing more is sent to it, pending
         *     deliveries included (an attempt already under way ends as it will). Removing it
         *     again is `404`.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Edit a webhook endpoint
         * @description Edits an endpoint with a JSON merge patch (RFC 7396) of `url`, `events`,
         *     `description` (`null` removes it) and `enabled`; `{}` changes nothing. A new `url`
         *     is checked as when the endpoint is added (`400 invalid_webhook_url`). Changing `url`,
         *     `events` or `enabled` needs the read scope of every resource the endpoint's events
         *     reach, as adding one does (`403 insufficient_scope`). Disabling an
         *     endpoint ends its pending deliveries (failed, `endpoint_disabled`); enabling it again
         *     sends only the events that commit from then on (`recover` sends what it missed).
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook endpoint's secret
         * @description Gives the endpoint a new secret, shown in this answer only. For `graceSeconds`
         *     (0 to 604800, default 86400) the previous secret stays live: each delivery then
         *     carries two signatures, one per secret, so a receiver can switch at its own pace. A
         *     rotation during the grace of another ends that older secret at once. A current
         *     secret the service can no longer read (its key for stored secrets lost) is not kept
         *     as the previous one: it ends at once, with no grace.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's delivery attempts
         * @description The deliveries log of an endpoint: every attempt, **newest first**, paged like every
         *     list. An attempt still to come is `pending`, with `nextAttemptAt`; a failed one says
         *     why (`error`: `timeout`, `connection_refused`, `address_not_allowed`, `redirect`,
         *     `http_status` with the `responseStatus`, ...) and, when another attempt follows,
         *     when. Kept as long as their events.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an endpoint what it missed
         * @description Delivers again every event since `since` that this endpoint selects and did not
         *     receive: deliveries that failed (every retry spent, or ended when the endpoint was
         *     disabled) and events that committed while it was disabled. Events it received, ones
         *     already pending, and ones that committed before the endpoint existed are not sent.
         *     The endpoint must be enabled (`409 conflict` otherwise), and the key needs the read
         *     scope of every resource its events reach (`403 insufficient_scope`). Answers how many
         *     deliveries were scheduled; they follow the retry schedule from its start.
         */
        post: operations["recoverWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "pet.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A pet was added
         * @description `createPet` added a pet; `data` is the pet as `getPet` answers it.
         */
        post: operations["petCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "pet.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A pet changed
         * @description A pet changed: `updatePet` edited it, or an order reserved it (`pending`), sold it
         *     (`sold`) or put it back on sale (`available`). `data` is the pet after the change,
         *     `previous` the fields that changed, as they were.
         */
        post: operations["petUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "category.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A category was added
         * @description `createCategory` added a category; `data` is the category as `getCategory` answers it.
         */
        post: operations["categoryCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "category.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A category changed
         * @description `updateCategory` renamed a category or changed its description. `data` is the category
         *     after the change, `previous` the fields that changed, as they were.
         */
        post: operations["categoryUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "category.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A category was removed
         * @description `deleteCategory` removed a category; `data` is the category as it was then. Its pets
         *     are left as they are, and have no event.
         */
        post: operations["categoryDeleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.placed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An order was placed
         * @description `placeOrder` placed an order; `data` is the order as `getOrder` answers it. Its
         *     pet's `pet.updated` follows it.
         */
        post: operations["orderPlaced"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An order changed
         * @description `updateOrder` changed an order's ship date or completed it. `data` is the order
         *     after the change, `previous` the fields that changed, as they were. Completing it
         *     sells its pet: the pet's `pet.updated` follows it.
         */
        post: operations["orderUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An order was cancelled
         * @description `cancelOrder` cancelled an order; `data` is the order as it was when cancelled.
         *     Its pet, back on sale, has a `pet.updated` after it.
         */
        post: operations["orderCancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description Availability of the pet.
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description The animal's name: 1 to 200 characters, at least one of them visible (a letter,
         *     digit, punctuation mark or symbol), and none of: control characters (such as NUL,
         *     tab or newline), unpaired UTF-16 surrogates, bidirectional controls (U+202A to
         *     U+202E, U+2066 to U+2069) or other invisible format characters (Unicode category
         *     Cf, such as U+200B or U+00AD), except a zero width joiner (U+200D) between two
         *     emoji. So a name is stored and returned exactly as sent, and reads the same
         *     everywhere it is shown. Emoji sequences, with skin tones and variation
         *     selectors, are fine.
         */
        PetName: string;
        /**
         * @description Text stored and answered exactly as sent: anything but NUL (U+0000) and unpaired
         *     UTF-16 surrogates (a `\ud800` to `\udfff` escape that is not half of a pair), which
         *     no database stores as sent. Either is refused with `400 invalid_request`. Every
         *     string a request carries is text of this kind, or narrower.
         */
        Text: string;
        /**
         * Format: int64
         * @description Identifier of the category the animal belongs to.
         */
        CategoryId: number | bigint;
        /**
         * @description The category's name: 1 to 100 characters, under the rules of a pet's name (at least
         *     one visible character; no control, bidirectional or other invisible format
         *     characters, but a zero width joiner between two emoji). Stored and returned exactly
         *     as sent; unique among categories once in Unicode NFC and case-folded.
         */
        CategoryName: string;
        /** @description What the category holds, for the people who read it (at most 1000 characters; may be empty). */
        CategoryDescription: string & components["schemas"]["Text"];
        /** @description A category to add. Unknown fields, including `id`, are refused. */
        NewCategory: {
            name: components["schemas"]["CategoryName"];
            description?: components["schemas"]["CategoryDescription"];
        };
        /**
         * @description A JSON merge patch of a category: the fields given replace the category's.
         *     `"description": null` removes the description; `name` cannot be null. Unknown
         *     fields, including `id`, are refused; `{}` changes nothing.
         */
        CategoryPatch: {
            name?: components["schemas"]["CategoryName"];
            /** @description The new description, or null to remove it (at most 1000 characters). */
            description?: components["schemas"]["CategoryDescription"] | null;
        };
        /**
         * @description A category of the store's animals. `description` is absent when it has none.
         * @example {
         *       "id": 1,
         *       "name": "Dogs",
         *       "description": "Every dog of the store, puppies included."
         *     }
         */
        Category: {
            id: components["schemas"]["CategoryId"];
            /** @description The category's name. */
            name: string;
            /** @description What the category holds. */
            description?: string;
        };
        /** @description A page of categories in ascending `id` order. */
        Categories: components["schemas"]["Category"][];
        /** @description A pet to add. Unknown fields, including `id`, are refused. */
        NewPet: {
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * @description A JSON merge patch of a pet: the fields given replace the pet's. `"status": null`
         *     removes the status; `name` and `categoryId` cannot be null. Unknown fields, including
         *     `id`, are refused; `{}` changes nothing.
         */
        PetPatch: {
            name?: components["schemas"]["PetName"];
            categoryId?: components["schemas"]["CategoryId"];
            /** @description The new availability of the pet, or null to remove it. */
            status?: components["schemas"]["PetStatus"] | null;
        };
        /**
         * @description A pet of the store. `status` is absent when the pet has none.
         * @example {
         *       "id": 1,
         *       "name": "Rex",
         *       "categoryId": 1,
         *       "status": "available"
         *     }
         */
        Pet: {
            /**
             * Format: int64
             * @description Unique identifier, assigned by the service.
             */
            id: number | bigint;
            /** @description The animal's name. */
            name: string;
            categoryId: components["schemas"]["CategoryId"];
            status?: components["schemas"]["PetStatus"];
        };
        /** @description A page of pets in ascending `id` order. */
        Pets: components["schemas"]["Pet"][];
        /** @description An order to place. Unknown fields, including `id`, are refused. */
        NewOrder: {
            /**
             * Format: int64
             * @description Identifier of the pet ordered; it must name an existing pet.
             */
            petId: number | bigint;
            quantity?: components["schemas"]["OrderQuantity"];
            /**
             * Format: date-time
             * @description When the order ships (RFC 3339, with a time zone); returned as sent.
             */
            shipDate?: string;
            complete?: components["schemas"]["NewOrderComplete"];
        };
        /**
         * @description How many, from 1 to 1000; 1 when left out. (A default in a schema of its own, so
         *     that generators that type a property with a default as required, such as
         *     openapi-typescript's, leave it optional.)
         * @default 1
         */
        OrderQuantity: number;
        /**
         * @description Whether the order is placed complete (shipped); false when left out. A complete order cannot be cancelled.
         * @default false
         */
        NewOrderComplete: boolean;
        /**
         * @description An order. `shipDate` is absent when none was given.
         * @example {
         *       "id": 1,
         *       "petId": 1,
         *       "quantity": 1,
         *       "shipDate": "2026-12-01T10:00:00Z",
         *       "complete": false
         *     }
         */
        Order: {
            /**
             * Format: int64
             * @description Unique identifier, assigned by the service.
             */
            id: number | bigint;
            /**
             * Format: int64
             * @description Identifier of the pet ordered.
             */
            petId: number | bigint;
            /** @description How many. */
            quantity: number;
            /**
             * Format: date-time
             * @description When the order ships.
             */
            shipDate?: string;
            /** @description Whether the order is complete (shipped). */
            complete: boolean;
        };
        /**
         * @description A JSON merge patch (RFC 7396) of an order: the fields to change, each left as it is
         *     when absent. Unknown fields, including `id` and `petId`, are refused.
         */
        OrderPatch: {
            /**
             * Format: date-time
             * @description When the order ships (RFC 3339, with a time zone); `null` removes it.
             */
            shipDate?: string | null;
            /**
             * @description `true` completes the order (it ships) and marks its pet `sold`; a complete
             *     order cannot be made incomplete again (`409 conflict`).
             */
            complete?: boolean;
        };
        /** @description A page of orders in ascending `id` order. */
        Orders: components["schemas"]["Order"][];
        /**
         * @description The type of an event. Each is declared under `webhooks`, with its body: the event
         *     as the feed lists it and as a webhook delivers it.
         * @enum {string}
         */
        EventType: "pet.created" | "pet.updated" | "category.created" | "category.updated" | "category.deleted" | "order.placed" | "order.updated" | "order.cancelled";
        /** @description Unique identifier of the event, the same wherever the event is read or delivered. */
        EventId: string;
        /**
         * Format: date-time
         * @description When the change committed (RFC 3339, UTC, with milliseconds).
         */
        EventTimestamp: string;
        /**
         * Format: int64
         * @description The event's position in the feed: strictly increasing in the order the changes
         *     committed, with gaps.
         */
        EventSequence: number | bigint;
        /**
         * @description Exactly the fields of the pet that the change changed, each with its value before
         *     the change (`null` where the field was absent). Its fields are those of `Pet` but
         *     `id`, each also `null`.
         */
        PetPrevious: {
            name?: string | null;
            categoryId?: components["schemas"]["CategoryId"] | null;
            status?: components["schemas"]["PetStatus"] | null;
        };
        /**
         * @description Exactly the fields of the category that the change changed, each with its value
         *     before the change (`null` where the field was absent). Its fields are those of
         *     `Category` but `id`, each also `null`.
         */
        CategoryPrevious: {
            name?: string | null;
            description?: string | null;
        };
        /**
         * @description Exactly the fields of the order that the change changed, each with its value before
         *     the change (`null` where the field was absent). Its fields are those of `Order` but
         *     `id`, each also `null`.
         */
        OrderPrevious: {
            petId?: (number | bigint) | null;
            quantity?: number | null;
            shipDate?: string | null;
            complete?: boolean | null;
        };
        /** @description A pet was added (`createPet`). */
        PetCreatedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "pet.created";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Pet"];
        };
        /** @description A pet changed (`updatePet`, or an order reserving, selling or freeing it). */
        PetUpdatedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "pet.updated";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Pet"];
            previous: components["schemas"]["PetPrevious"];
        };
        /** @description A category was added (`createCategory`). */
        CategoryCreatedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "category.created";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Category"];
        };
        /** @description A category changed (`updateCategory`). */
        CategoryUpdatedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "category.updated";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Category"];
            previous: components["schemas"]["CategoryPrevious"];
        };
        /** @description A category was removed (`deleteCategory`); `data` is the category as it was then. */
        CategoryDeletedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "category.deleted";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Category"];
        };
        /** @description An order was placed (`placeOrder`). */
        OrderPlacedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "order.placed";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Order"];
        };
        /** @description An order changed (`updateOrder`, completion included). */
        OrderUpdatedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "order.updated";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Order"];
            previous: components["schemas"]["OrderPrevious"];
        };
        /** @description An order was cancelled (`cancelOrder`); `data` is the order as it was then. */
        OrderCancelledEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "order.cancelled";
            timestamp: components["schemas"]["EventTimestamp"];
            sequence: components["schemas"]["EventSequence"];
            data: components["schemas"]["Order"];
        };
        /** @description An event of any type; `type` says which. */
        Event: components["schemas"]["PetCreatedEvent"] | components["schemas"]["PetUpdatedEvent"] | components["schemas"]["CategoryCreatedEvent"] | components["schemas"]["CategoryUpdatedEvent"] | components["schemas"]["CategoryDeletedEvent"] | components["schemas"]["OrderPlacedEvent"] | components["schemas"]["OrderUpdatedEvent"] | components["schemas"]["OrderCancelledEvent"];
        /** @description A page of the feed, in ascending `sequence` order. */
        Events: components["schemas"]["Event"][];
        /**
         * Format: int64
         * @description Identifier of a webhook endpoint.
         */
        WebhookEndpointId: number | bigint;
        /**
         * @description Where deliveries are sent with `POST`: an `https` URL whose host resolves only to public
         *     addresses (see `createWebhookEndpoint`), at most 2048 characters.
         */
        WebhookUrl: string & components["schemas"]["Text"];
        /**
         * @description The events an endpoint receives: one event type (see `EventType`), every type of
         *     one resource (`pet.*`, `category.*`, `order.*`), or every type (`*`).
         * @enum {string}
         */
        WebhookEventSelection: "pet.created" | "pet.updated" | "category.created" | "category.updated" | "category.deleted" | "order.placed" | "order.updated" | "order.cancelled" | "pet.*" | "category.*" | "order.*" | "*";
        /** @description The event selections, at least one, each once. */
        WebhookEventSelections: components["schemas"]["WebhookEventSelection"][];
        /** @description What the endpoint is for, for the people who read the list (at most 500 characters). */
        WebhookDescription: string & components["schemas"]["Text"];
        /**
         * Format: password
         * @description A signing secret: `whsec_` and the base64 of 32 random bytes. The signature key is
         *     those bytes (Standard Webhooks).
         */
        WebhookSecretValue: string;
        /** @description An endpoint to add. Unknown fields are refused. */
        NewWebhookEndpoint: {
            url: components["schemas"]["WebhookUrl"];
            events: components["schemas"]["WebhookEventSelections"];
            description?: components["schemas"]["WebhookDescription"];
        };
        /**
         * @description A webhook endpoint, without its secret. `description` is absent when it has none.
         *     `enabled` turns false when the endpoint is disabled: by an edit, by a `410 Gone`
         *     from it, or after every delivery to it failed for 5 days.
         */
        WebhookEndpoint: {
            id: components["schemas"]["WebhookEndpointId"];
            url: components["schemas"]["WebhookUrl"];
            events: components["schemas"]["WebhookEventSelections"];
            description?: components["schemas"]["WebhookDescription"];
            enabled: boolean;
            /**
             * Format: date-time
             * @description When the endpoint was added (RFC 3339, UTC).
             */
            createdAt: string;
        };
        /** @description The endpoint just added, with its secret, which no other answer shows. */
        CreatedWebhookEndpoint: {
            id: components["schemas"]["WebhookEndpointId"];
            url: components["schemas"]["WebhookUrl"];
            events: components["schemas"]["WebhookEventSelections"];
            description?: components["schemas"]["WebhookDescription"];
            enabled: boolean;
            /**
             * Format: date-time
             * @description When the endpoint was added (RFC 3339, UTC).
             */
            createdAt: string;
            secret: components["schemas"]["WebhookSecretValue"];
        };
        /** @description A page of endpoints, in ascending `id` order. */
        WebhookEndpoints: components["schemas"]["WebhookEndpoint"][];
        /**
         * @description A JSON merge patch of an endpoint: the fields given replace the endpoint's;
         *     `"description": null` removes the description. Unknown fields are refused; `{}`
         *     changes nothing.
         */
        WebhookEndpointPatch: {
            url?: components["schemas"]["WebhookUrl"];
            events?: components["schemas"]["WebhookEventSelections"];
            /** @description The new description, or null to remove it (at most 500 characters). */
            description?: components["schemas"]["WebhookDescription"] | null;
            enabled?: boolean;
        };
        /** @description How long the previous secret stays live. Unknown fields are refused. */
        WebhookSecretRotation: {
            graceSeconds?: components["schemas"]["GraceSeconds"];
        };
        /**
         * @description Seconds the previous secret still signs deliveries, from 0 to 604800 (7 days); 86400 (a day) when left out.
         * @default 86400
         */
        GraceSeconds: number;
        /**
         * @description The endpoint's new secret, shown in this answer only, and until when the previous
         *     one still signs (absent when the grace is 0, or the previous one could not be read).
         */
        WebhookSecret: {
            secret: components["schemas"]["WebhookSecretValue"];
            /**
             * Format: date-time
             * @description When the previous secret stops signing deliveries (RFC 3339, UTC).
             */
            previousSecretExpiresAt?: string;
        };
        /**
         * @description `succeeded`: the endpoint answered `2xx` in time. `failed`: it did not (see
         *     `error`). `pending`: the attempt is still to come (at `nextAttemptAt`) or under way.
         * @enum {string}
         */
        WebhookDeliveryOutcome: "succeeded" | "failed" | "pending";
        /**
         * @description Why an attempt failed: `timeout` (no answer within the timeout), `connection_refused`,
         *     `connection_reset`, `dns` (the host did not resolve), `tls`, `network` (another
         *     connection failure), `address_not_allowed` (the host resolved to an address
         *     webhooks may not go to: nothing was sent), `redirect` (a `3xx`, never followed),
         *     `http_status` (another status than `2xx`; see `responseStatus`),
         *     `endpoint_disabled` (the endpoint was disabled before the attempt), or
         *     `secret_unreadable` (the service could not read the endpoint's stored secret, so
         *     nothing was sent and no retry follows: rotate the secret, then recover).
         * @enum {string}
         */
        WebhookDeliveryError: "timeout" | "connection_refused" | "connection_reset" | "dns" | "tls" | "network" | "address_not_allowed" | "redirect" | "http_status" | "endpoint_disabled" | "secret_unreadable";
        /**
         * @description One attempt to deliver one event to the endpoint. The same event keeps its
         *     `eventId` (the `webhook-id` header) on every attempt. Fields without a value are
         *     absent: `attemptedAt`, `durationMs` and `responseStatus` until an attempt is made
         *     and answered, `error` unless it failed, `nextAttemptAt` unless another attempt
         *     is due.
         */
        WebhookDelivery: {
            /**
             * Format: int64
             * @description Identifier of the attempt.
             */
            id: number | bigint;
            eventId: components["schemas"]["EventId"];
            /** @description Which attempt this is for the event, from 1. */
            attempt: number;
            outcome: components["schemas"]["WebhookDeliveryOutcome"];
            /** @description The HTTP status the endpoint answered. */
            responseStatus?: number;
            error?: components["schemas"]["WebhookDeliveryError"];
            /** @description How long the attempt took, in milliseconds. */
            durationMs?: number;
            /**
             * Format: date-time
             * @description When the attempt was made (RFC 3339, UTC).
             */
            attemptedAt?: string;
            /**
             * Format: date-time
             * @description When the next attempt is due (RFC 3339, UTC).
             */
            nextAttemptAt?: string;
        };
        /** @description A page of the deliveries log, newest first. */
        WebhookDeliveries: components["schemas"]["WebhookDelivery"][];
        /** @description From when to deliver again what the endpoint missed. */
        WebhookRecovery: {
            /**
             * Format: date-time
             * @description Events that committed at or after this instant (RFC 3339).
             */
            since: string;
        };
        /** @description How many deliveries `recover` scheduled. */
        WebhookRecoveryScheduled: {
            scheduled: number;
        };
        /**
         * @description Machine-readable error code:
         *     - `invalid_request` (400): a parameter or body field failed validation.
         *     - `invalid_json` (400): the body is not parseable JSON.
         *     - `unsupported_media_type` (400): a body sent without `Content-Type: application/json`.
         *     - `unauthorized` (401): the API key is missing, invalid, expired, or not in the `Bearer` form.
         *     - `insufficient_scope` (403): the API key is valid but lacks the operation's scope.
         *     - `not_found` (404): no such pet, category, order, event or webhook endpoint, or no
         *       such route.
         *     - `method_not_allowed` (405): the path exists but not with this method (see `Allow`).
         *     - `invalid_webhook_url` (400): a webhook endpoint's URL is one the service will not
         *       call (not `https`, or an address that is not public); the message says why.
         *     - `conflict` (409): the request conflicts with the resource's state (cancelling a
         *       complete order, changing the status of a pet an open order holds, a category name
         *       another category has, recovering a disabled webhook endpoint, one webhook endpoint more than the service keeps).
         *     - `idempotency_key_in_use` (409): the first request with this `Idempotency-Key` is
         *       still running.
         *     - `request_timeout` (408): the request was not received in time; the connection is closed.
         *     - `gone` (410): the deprecated operation after its sunset date.
         *     - `precondition_failed` (412): the `If-Match` does not match the current `ETag`.
         *     - `payload_too_large` (413): the body is over the limit.
         *     - `idempotency_key_reused` (422): the `Idempotency-Key` was used for a different
         *       request.
         *     - `rate_limited` (429): too many requests for this key (or, without a valid key, from
         *       this address), or too many of its readers waiting on the feed; wait for
         *       `Retry-After` seconds.
         *     - `headers_too_large` (431): the request headers are too large.
         *     - `internal_error` (500): an unexpected failure; the message carries the request id
         *       to quote when reporting it.
         *     - `unavailable` (503): the service is overloaded, or its database cannot serve right
         *       now (locked, full, unreachable or too slow); retry after `Retry-After` seconds.
         * @enum {string}
         */
        ErrorCode: "invalid_request" | "invalid_json" | "unsupported_media_type" | "invalid_webhook_url" | "unauthorized" | "insufficient_scope" | "not_found" | "method_not_allowed" | "conflict" | "idempotency_key_in_use" | "request_timeout" | "gone" | "precondition_failed" | "payload_too_large" | "idempotency_key_reused" | "rate_limited" | "headers_too_large" | "internal_error" | "unavailable";
        /** @description The body of every error response. */
        Error: {
            code: components["schemas"]["ErrorCode"];
            /** @description Human-readable description. */
            message: string;
            /** @description The HTTP status code of the response. */
            status: number;
        };
    };
    responses: {
        /**
         * @description A parameter or body field failed validation (`invalid_request`, the message
         *     names it), the body is not JSON (`invalid_json`), or a body was sent without
         *     `Content-Type: application/json` (`unsupported_media_type`).
         */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "invalid_request",
                 *       "message": "body must have required property 'categoryId'",
                 *       "status": 400
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description A parameter or body field failed validation (`invalid_request`, the message names
         *     it; an event type this document does not declare is one), the body is not JSON
         *     (`invalid_json`) or not sent as JSON (`unsupported_media_type`), or the URL is one
         *     the service will not call (`invalid_webhook_url`, the message says why).
         */
        WebhookBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "invalid_webhook_url",
                 *       "message": "body/url: 10.0.0.7 is a private address; webhooks go to public addresses only",
                 *       "status": 400
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The API key is missing, invalid, or not sent in the `Bearer` form. */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "unauthorized",
                 *       "message": "Missing or invalid API key",
                 *       "status": 401
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The API key is valid but lacks the operation's scope, and any scope that includes it
         *     (`insufficient_scope`); the `WWW-Authenticate` challenge names the scope. Nothing was
         *     changed.
         */
        Forbidden: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "insufficient_scope",
                 *       "message": "This API key lacks the scope pets:write, which createPet needs",
                 *       "status": 403
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The pet, category, order, event or webhook endpoint does not exist. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "not_found",
                 *       "message": "Pet 42 not found",
                 *       "status": 404
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The first request with this `Idempotency-Key` is still running; retry after a moment. */
        IdempotencyKeyInUse: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "idempotency_key_in_use",
                 *       "message": "A request with this Idempotency-Key is still running; retry after it finishes",
                 *       "status": 409
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description This `Idempotency-Key` was used for a different request. */
        IdempotencyKeyReused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "idempotency_key_reused",
                 *       "message": "This Idempotency-Key was used for a different request; use a new key for a new request",
                 *       "status": 422
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The answer the client holds is still current (its `ETag` matched `If-None-Match`):
         *     no body.
         */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description The request conflicts with the state of the resource: cancelling or un-completing a
         *     complete order, ordering a pet that is not `available`, changing the status of a
         *     pet an open order holds, naming a category with another category's name, or
         *     recovering a disabled webhook endpoint.
         */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "conflict",
                 *       "message": "Order 7 is complete (shipped) and can no longer be cancelled",
                 *       "status": 409
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The `If-Match` given does not match the current `ETag`; nothing was changed. */
        PreconditionFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "precondition_failed",
                 *       "message": "Pet 5 was not changed: its current ETag is not one If-Match names",
                 *       "status": 412
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The operation has passed its sunset date and is no longer served. */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "gone",
                 *       "message": "GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets",
                 *       "status": 410
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than the limit (16 KiB by default). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "payload_too_large",
                 *       "message": "Request body is too large",
                 *       "status": 413
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Over the rate limit: per API key (1000 a minute by default), or the client address is
         *     over its allowance of failed key checks (60 a minute by default), in which case every
         *     request from it is refused, whatever key it sends, until the window passes.
         */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "rate_limited",
                 *       "message": "Rate limit of 1000 requests per 60 s exceeded; retry in 12 seconds",
                 *       "status": 429
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service is overloaded, or its database cannot serve right now (locked, full, unreachable or too slow); retry after `Retry-After` seconds. */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "unavailable",
                 *       "message": "The service is overloaded; retry after the Retry-After delay",
                 *       "status": 503
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected failure. Details are logged with the request id, never sent. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "internal_error",
                 *       "message": "Internal server error (request id 5f0c7a52-4d4e-4b8e-9d39-1c3a8f7e2b10)",
                 *       "status": 500
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
         *     receiver that has seen it may answer `2xx` and do nothing more.
         */
        WebhookIdHeader: components["schemas"]["EventId"];
        /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
        WebhookTimestampHeader: string;
        /**
         * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
         *     under the endpoint's secret; two such entries, space-separated, while a rotated
         *     secret's grace lasts. Any Standard Webhooks library verifies it.
         */
        WebhookSignatureHeader: string;
        /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
        TraceparentHeader: string;
        /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
        Limit: number;
        /** @description Keeps only pets with this status. Without it, no filtering. */
        StatusFilter: components["schemas"]["PetStatus"];
        /**
         * @description Keeps only pets with this `categoryId`, in decimal digits (1 to the int64 maximum),
         *     whether or not such a category exists. Without it, no filtering.
         */
        CategoryFilter: components["schemas"]["CategoryId"];
        /**
         * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
         *     request you mean to make once. A retry with the same key and the same request (the
         *     same operation, path and body) gets the first answer again, with
         *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
         *     on another path included, is `422 idempotency_key_reused`.
         */
        IdempotencyKey: string;
        /**
         * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
         *     the answer would be the same, it is `304 Not Modified` with no body.
         */
        IfNoneMatch: string & components["schemas"]["Text"];
        /**
         * @description Makes the edit conditional: the `ETag` of the resource (a pet, a category) as the
         *     client last saw it (or a list of them, or `*` for any existing one). When its current
         *     `ETag` is not one of them, the answer is `412 precondition_failed` and nothing changes.
         */
        IfMatch: string & components["schemas"]["Text"];
        /**
         * @description Opaque position of the next page, taken from the `Link` header of the
         *     previous page. A malformed cursor answers `400 invalid_request`.
         */
        Cursor: string & components["schemas"]["Text"];
        /** @description Identifier of the pet. */
        PetId: number | bigint;
        /** @description Identifier of the category. */
        CategoryIdPath: components["schemas"]["CategoryId"];
        /** @description Identifier of the order. */
        OrderId: number | bigint;
        /** @description Keeps only events of this type. Without it, every type. */
        EventTypeFilter: components["schemas"]["EventType"];
        /**
         * @description Seconds, from 0 to 30, that an empty page waits for an event after the cursor: it
         *     answers as soon as one commits, or with no event when the time is up. 0, the
         *     default, answers at once.
         */
        Wait: number;
        /** @description Identifier of the webhook endpoint. */
        WebhookEndpointId: components["schemas"]["WebhookEndpointId"];
        /** @description Identifier of the event. */
        EventId: components["schemas"]["EventId"];
    };
    requestBodies: never;
    headers: {
        /**
         * @description RFC 8288 link to the page after this one, on every page of the feed, the last and
         *     an empty one included, for example `</v1/events?limit=20&cursor=MTIz>; rel="next"`.
         */
        FeedLink: string;
        /**
         * @description RFC 8288 link to the next page, present only when more items follow, for
         *     example `</v1/pets?limit=20&status=sold&cursor=MTIz>; rel="next"`.
         */
        NextLink: string;
        /** @description RFC 9745 date at which the operation was deprecated (22 November 2026). */
        Deprecation: "@1795305600";
        /** @description RFC 8594 date from which the operation answers `410 gone`. */
        Sunset: "Thu, 05 Dec 2030 00:00:00 GMT";
        /** @description RFC 8288 link to the operation that replaces this one. */
        SuccessorLink: "</v1/pets>; rel=\"successor-version\"";
        /** @description Present, `true`, when this is the kept answer of an earlier request with the same `Idempotency-Key`. */
        IdempotentReplayed: "true";
        /**
         * @description Entity tag of the answer's body; it changes whenever the body would. Send it back in
         *     `If-None-Match` to revalidate.
         */
        ETag: string;
        /**
         * @description The stability level of an operation marked `x-stability`: `experimental`, `alpha`
         *     or `beta` (see Stability). Stable operations send no such header.
         */
        ApiStability: "experimental" | "alpha" | "beta";
        /**
         * @description The id of this request, as it appears in the service's logs: the `X-Request-Id`
         *     the client sent (1 to 128 characters of `A-Z a-z 0-9 . _ : @ -`), or a new UUID.
         */
        RequestId: string;
        /** @description Requests allowed per minute for this key (or, without a valid key, this address). */
        RateLimitLimit: number;
        /** @description Requests left in the current minute. */
        RateLimitRemaining: number;
        /** @description Seconds until the current window ends. */
        RateLimitReset: number;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /**
         * @description RFC 6750 challenge, for example `Bearer realm="petstore", error="invalid_token"`, or, for
         *     a key without the operation's scope, `Bearer realm="petstore", error="insufficient_scope", scope="pets:write"`.
         */
        WWWAuthenticate: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
                limit?: components["parameters"]["Limit"];
                /** @description Keeps only pets with this status. Without it, no filtering. */
                status?: components["parameters"]["StatusFilter"];
                /**
                 * @description Keeps only pets with this `categoryId`, in decimal digits (1 to the int64 maximum),
                 *     whether or not such a category exists. Without it, no filtering.
                 */
                categoryId?: components["parameters"]["CategoryFilter"];
                /**
                 * @description Opaque position of the next page, taken from the `Link` header of the
                 *     previous page. A malformed cursor answers `400 invalid_request`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pets, possibly empty. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["NextLink"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pets"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
                 *     request you mean to make once. A retry with the same key and the same request (the
                 *     same operation, path and body) gets the first answer again, with
                 *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
                 *     on another path included, is `422 idempotency_key_reused`.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Rex",
                 *       "categoryId": 1,
                 *       "status": "available"
                 *     }
                 */
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description The pet was added (or, with `Idempotent-Replayed`, had been by the first request with this `Idempotency-Key`). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Identifier of the pet. */
                petId: components["parameters"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["SuccessorLink"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updatePet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the edit conditional: the `ETag` of the resource (a pet, a category) as the
                 *     client last saw it (or a list of them, or `*` for any existing one). When its current
                 *     `ETag` is not one of them, the answer is `412 precondition_failed` and nothing changes.
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description Identifier of the pet. */
                petId: components["parameters"]["PetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Rex",
                 *       "status": null
                 *     }
                 */
                "application/merge-patch+json": components["schemas"]["PetPatch"];
                /**
                 * @example {
                 *       "status": "available"
                 *     }
                 */
                "application/json": components["schemas"]["PetPatch"];
            };
        };
        responses: {
            /** @description The pet as it is now. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCategories: {
        parameters: {
            query?: {
                /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Opaque position of the next page, taken from the `Link` header of the
                 *     previous page. A malformed cursor answers `400 invalid_request`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of categories, possibly empty. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["NextLink"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Categories"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createCategory: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
                 *     request you mean to make once. A retry with the same key and the same request (the
                 *     same operation, path and body) gets the first answer again, with
                 *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
                 *     on another path included, is `422 idempotency_key_reused`.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Dogs",
                 *       "description": "Every dog of the store, puppies included."
                 *     }
                 */
                "application/json": components["schemas"]["NewCategory"];
            };
        };
        responses: {
            /** @description The category was added (or, with `Idempotent-Replayed`, had been by the first request with this `Idempotency-Key`). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /**
             * @description Another category has this name (`conflict`), or a request with this
             *     `Idempotency-Key` is still running (`idempotency_key_in_use`).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCategory: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Identifier of the category. */
                categoryId: components["parameters"]["CategoryIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the category. */
                categoryId: components["parameters"]["CategoryIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The category was removed. */
            204: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateCategory: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the edit conditional: the `ETag` of the resource (a pet, a category) as the
                 *     client last saw it (or a list of them, or `*` for any existing one). When its current
                 *     `ETag` is not one of them, the answer is `412 precondition_failed` and nothing changes.
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /** @description Identifier of the category. */
                categoryId: components["parameters"]["CategoryIdPath"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Dogs and puppies"
                 *     }
                 */
                "application/merge-patch+json": components["schemas"]["CategoryPatch"];
                /**
                 * @example {
                 *       "description": null
                 *     }
                 */
                "application/json": components["schemas"]["CategoryPatch"];
            };
        };
        responses: {
            /** @description The category as it is now. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Opaque position of the next page, taken from the `Link` header of the
                 *     previous page. A malformed cursor answers `400 invalid_request`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders, possibly empty. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["NextLink"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Orders"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    placeOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
                 *     request you mean to make once. A retry with the same key and the same request (the
                 *     same operation, path and body) gets the first answer again, with
                 *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
                 *     on another path included, is `422 idempotency_key_reused`.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "petId": 1,
                 *       "quantity": 1,
                 *       "shipDate": "2026-12-01T10:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["NewOrder"];
            };
        };
        responses: {
            /** @description The order was placed (or, with `Idempotent-Replayed`, had been by the first request with this `Idempotency-Key`). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /**
             * @description The pet is not `available` (`conflict`), or a request with this
             *     `Idempotency-Key` is still running (`idempotency_key_in_use`).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Identifier of the order. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the order. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order was cancelled. */
            204: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the order. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "complete": true
                 *     }
                 */
                "application/merge-patch+json": components["schemas"]["OrderPatch"];
                /**
                 * @example {
                 *       "shipDate": "2026-12-02T10:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["OrderPatch"];
            };
        };
        responses: {
            /** @description The order, as changed. */
            200: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Opaque position of the next page, taken from the `Link` header of the
                 *     previous page. A malformed cursor answers `400 invalid_request`.
                 */
                cursor?: components["parameters"]["Cursor"];
                /** @description Keeps only events of this type. Without it, every type. */
                type?: components["parameters"]["EventTypeFilter"];
                /**
                 * @description Seconds, from 0 to 30, that an empty page waits for an event after the cursor: it
                 *     answers as soon as one commits, or with no event when the time is up. 0, the
                 *     default, answers at once.
                 */
                wait?: components["parameters"]["Wait"];
            };
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events, possibly empty. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["FeedLink"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Events"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Identifier of the event. */
                eventId: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Opaque position of the next page, taken from the `Link` header of the
                 *     previous page. A malformed cursor answers `400 invalid_request`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["NextLink"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoints"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
                 *     request you mean to make once. A retry with the same key and the same request (the
                 *     same operation, path and body) gets the first answer again, with
                 *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
                 *     on another path included, is `422 idempotency_key_reused`.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/petstore/webhooks",
                 *       "events": [
                 *         "pet.created",
                 *         "order.*"
                 *       ],
                 *       "description": "Stock sync"
                 *     }
                 */
                "application/json": components["schemas"]["NewWebhookEndpoint"];
            };
        };
        responses: {
            /** @description The endpoint was added; its secret is in this answer only. */
            201: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            400: components["responses"]["WebhookBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /**
             * @description There are `WEBHOOK_MAX_ENDPOINTS` endpoints already (`conflict`): remove one, or
             *     edit one. Or a request with this `Idempotency-Key` is still running
             *     (`idempotency_key_in_use`).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "conflict",
                     *       "message": "There are 50 webhook endpoints already, the most this service keeps (WEBHOOK_MAX_ENDPOINTS): remove one, or edit one to send where this one would",
                     *       "status": 409
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Identifier of the webhook endpoint. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the webhook endpoint. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint was removed. */
            204: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the webhook endpoint. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": false
                 *     }
                 */
                "application/merge-patch+json": components["schemas"]["WebhookEndpointPatch"];
                /**
                 * @example {
                 *       "events": [
                 *         "*"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookEndpointPatch"];
            };
        };
        responses: {
            /** @description The endpoint as it is now. */
            200: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["WebhookBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
                 *     request you mean to make once. A retry with the same key and the same request (the
                 *     same operation, path and body) gets the first answer again, with
                 *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
                 *     on another path included, is `422 idempotency_key_reused`.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "graceSeconds": 3600
                 *     }
                 */
                "application/json": components["schemas"]["WebhookSecretRotation"];
            };
        };
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Maximum number of items returned, from 1 to 100, in decimal digits. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Opaque position of the next page, taken from the `Link` header of the
                 *     previous page. A malformed cursor answers `400 invalid_request`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `ETag` of an answer the client already holds (or a list of them, or `*`). When
                 *     the answer would be the same, it is `304 Not Modified` with no body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Identifier of the webhook endpoint. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["NextLink"];
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveries"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    recoverWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: 1 to 255 visible ASCII characters, unique per
                 *     request you mean to make once. A retry with the same key and the same request (the
                 *     same operation, path and body) gets the first answer again, with
                 *     `Idempotent-Replayed: true`, and makes nothing; the same key with another request,
                 *     on another path included, is `422 idempotency_key_reused`.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-20T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRecovery"];
            };
        };
        responses: {
            /** @description The deliveries are scheduled. */
            202: {
                headers: {
                    "API-Stability": components["headers"]["ApiStability"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecoveryScheduled"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /**
             * @description The endpoint is disabled (`conflict`): enable it first. Or a request with this
             *     `Idempotency-Key` is still running (`idempotency_key_in_use`).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "conflict",
                     *       "message": "Webhook endpoint 3 is disabled; enable it before recovering what it missed",
                     *       "status": 409
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    petCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PetCreatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    petUpdated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PetUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    categoryCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CategoryCreatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    categoryUpdated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CategoryUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    categoryDeleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CategoryDeletedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    orderPlaced: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderPlacedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    orderUpdated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    orderCancelled: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it (Standard Webhooks): a
                 *     receiver that has seen it may answer `2xx` and do nothing more.
                 */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description When this attempt was made, in seconds since the Unix epoch; a receiver refuses one too far from its own clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /**
                 * @description `v1,` and the base64 of the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
                 *     under the endpoint's secret; two such entries, space-separated, while a rotated
                 *     secret's grace lasts. Any Standard Webhooks library verifies it.
                 */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                /** @description With tracing on, the delivery's span (W3C Trace Context), of the trace of the change that caused the event. */
                traceparent?: components["parameters"]["TraceparentHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderCancelledEvent"];
            };
        };
        responses: {
            /** @description Received. Any 2xx acknowledges the event; any other answer, a redirect included, is a failure, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}

/** The operations of `paths`, by operationId: those the service serves. */
export type PathOperationId = "listPets" | "createPet" | "getPet" | "updatePet" | "listCategories" | "createCategory" | "getCategory" | "updateCategory" | "deleteCategory" | "listOrders" | "placeOrder" | "getOrder" | "updateOrder" | "cancelOrder" | "listEvents" | "getEvent" | "listWebhookEndpoints" | "createWebhookEndpoint" | "getWebhookEndpoint" | "updateWebhookEndpoint" | "deleteWebhookEndpoint" | "rotateWebhookSecret" | "listWebhookDeliveries" | "recoverWebhookEndpoint";
