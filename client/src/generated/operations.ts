// Generated from spec/openapi.yaml by `npm run codegen` (scripts/lib/client-operations.ts). Do not edit.

import type { Operation } from "../operation.ts";
import type { PathOperationId } from "./openapi.ts";

/** Every operation of the document, by operationId, as the client calls it: one method each (../client.ts, ../types.ts). */
export const OPERATIONS = {
    /**
     * List pets.
     * Every item, page after page, as the loop asks for them; `limit` is the page size.
     */
    listPets: { method: "GET", path: "/pets", pathParameters: [] as [], body: null, defaulted: [], query: "optional", idempotencyKey: false, ifMatch: false, paged: true, answer: "json" },
    /**
     * Add a pet.
     * Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.
     */
    createPet: { method: "POST", path: "/pets", pathParameters: [] as [], body: "application/json", defaulted: [], query: "none", idempotencyKey: true, ifMatch: false, paged: false, answer: "json" },
    /**
     * Get a pet (deprecated).
     * @deprecated The service removes getPet on 2030-12-05 (then 410 `gone`): use listPets.
     */
    getPet: { method: "GET", path: "/pets/{petId}", pathParameters: ["petId"] as [petId: "petId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /**
     * Edit a pet (experimental in the service).
     * Sends `If-Match` when the options give one (`ifMatch`, an `ETag`): the service then acts only if it still matches.
     */
    updatePet: { method: "PATCH", path: "/pets/{petId}", pathParameters: ["petId"] as [petId: "petId"], body: "application/merge-patch+json", defaulted: [], query: "none", idempotencyKey: false, ifMatch: true, paged: false, answer: "json" },
    /**
     * List categories (beta in the service).
     * Every item, page after page, as the loop asks for them; `limit` is the page size.
     */
    listCategories: { method: "GET", path: "/categories", pathParameters: [] as [], body: null, defaulted: [], query: "optional", idempotencyKey: false, ifMatch: false, paged: true, answer: "json" },
    /**
     * Add a category (beta in the service).
     * Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.
     */
    createCategory: { method: "POST", path: "/categories", pathParameters: [] as [], body: "application/json", defaulted: [], query: "none", idempotencyKey: true, ifMatch: false, paged: false, answer: "json" },
    /** Get a category (beta in the service). */
    getCategory: { method: "GET", path: "/categories/{categoryId}", pathParameters: ["categoryId"] as [categoryId: "categoryId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /**
     * Edit a category (beta in the service).
     * Sends `If-Match` when the options give one (`ifMatch`, an `ETag`): the service then acts only if it still matches.
     */
    updateCategory: { method: "PATCH", path: "/categories/{categoryId}", pathParameters: ["categoryId"] as [categoryId: "categoryId"], body: "application/merge-patch+json", defaulted: [], query: "none", idempotencyKey: false, ifMatch: true, paged: false, answer: "json" },
    /**
     * Remove a category (beta in the service).
     * Resolves once it is done, including when an attempt's answer was lost and the retry finds it already gone.
     */
    deleteCategory: { method: "DELETE", path: "/categories/{categoryId}", pathParameters: ["categoryId"] as [categoryId: "categoryId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "none" },
    /**
     * List orders (experimental in the service).
     * Every item, page after page, as the loop asks for them; `limit` is the page size.
     */
    listOrders: { method: "GET", path: "/store/orders", pathParameters: [] as [], body: null, defaulted: [], query: "optional", idempotencyKey: false, ifMatch: false, paged: true, answer: "json" },
    /**
     * Place an order (experimental in the service).
     * Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.
     */
    placeOrder: { method: "POST", path: "/store/orders", pathParameters: [] as [], body: "application/json", defaulted: ["quantity", "complete"], query: "none", idempotencyKey: true, ifMatch: false, paged: false, answer: "json" },
    /** Get an order (experimental in the service). */
    getOrder: { method: "GET", path: "/store/orders/{orderId}", pathParameters: ["orderId"] as [orderId: "orderId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /** Update an order (experimental in the service). */
    updateOrder: { method: "PATCH", path: "/store/orders/{orderId}", pathParameters: ["orderId"] as [orderId: "orderId"], body: "application/merge-patch+json", defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /**
     * Cancel an order (beta in the service).
     * Resolves once it is done, including when an attempt's answer was lost and the retry finds it already gone.
     */
    cancelOrder: { method: "DELETE", path: "/store/orders/{orderId}", pathParameters: ["orderId"] as [orderId: "orderId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "none" },
    /**
     * Follow the event feed (experimental in the service).
     * Every item, page after page, as the loop asks for them; `limit` is the page size.
     */
    listEvents: { method: "GET", path: "/events", pathParameters: [] as [], body: null, defaulted: [], query: "optional", idempotencyKey: false, ifMatch: false, paged: true, answer: "json" },
    /** Get an event (experimental in the service). */
    getEvent: { method: "GET", path: "/events/{eventId}", pathParameters: ["eventId"] as [eventId: "eventId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /**
     * List webhook endpoints (experimental in the service).
     * Every item, page after page, as the loop asks for them; `limit` is the page size.
     */
    listWebhookEndpoints: { method: "GET", path: "/webhook-endpoints", pathParameters: [] as [], body: null, defaulted: [], query: "optional", idempotencyKey: false, ifMatch: false, paged: true, answer: "json" },
    /**
     * Add a webhook endpoint (experimental in the service).
     * Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.
     */
    createWebhookEndpoint: { method: "POST", path: "/webhook-endpoints", pathParameters: [] as [], body: "application/json", defaulted: [], query: "none", idempotencyKey: true, ifMatch: false, paged: false, answer: "json" },
    /** Get a webhook endpoint (experimental in the service). */
    getWebhookEndpoint: { method: "GET", path: "/webhook-endpoints/{endpointId}", pathParameters: ["endpointId"] as [endpointId: "endpointId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /** Edit a webhook endpoint (experimental in the service). */
    updateWebhookEndpoint: { method: "PATCH", path: "/webhook-endpoints/{endpointId}", pathParameters: ["endpointId"] as [endpointId: "endpointId"], body: "application/merge-patch+json", defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "json" },
    /**
     * Remove a webhook endpoint (experimental in the service).
     * Resolves once it is done, including when an attempt's answer was lost and the retry finds it already gone.
     */
    deleteWebhookEndpoint: { method: "DELETE", path: "/webhook-endpoints/{endpointId}", pathParameters: ["endpointId"] as [endpointId: "endpointId"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "none" },
    /**
     * Rotate a webhook endpoint's secret (experimental in the service).
     * Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.
     */
    rotateWebhookSecret: { method: "POST", path: "/webhook-endpoints/{endpointId}/rotate-secret", pathParameters: ["endpointId"] as [endpointId: "endpointId"], body: "application/json", defaulted: ["graceSeconds"], query: "none", idempotencyKey: true, ifMatch: false, paged: false, answer: "json" },
    /**
     * List an endpoint's delivery attempts (experimental in the service).
     * Every item, page after page, as the loop asks for them; `limit` is the page size.
     */
    listWebhookDeliveries: { method: "GET", path: "/webhook-endpoints/{endpointId}/deliveries", pathParameters: ["endpointId"] as [endpointId: "endpointId"], body: null, defaulted: [], query: "optional", idempotencyKey: false, ifMatch: false, paged: true, answer: "json" },
    /**
     * Send an endpoint what it missed (experimental in the service).
     * Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.
     */
    recoverWebhookEndpoint: { method: "POST", path: "/webhook-endpoints/{endpointId}/recover", pathParameters: ["endpointId"] as [endpointId: "endpointId"], body: "application/json", defaulted: [], query: "none", idempotencyKey: true, ifMatch: false, paged: false, answer: "json" }
} as const satisfies Record<PathOperationId, Operation>;

/** The one-page method of each list operation, and the operation it calls. */
export interface PageMethods {
    /** List pets: one page; pass its `nextCursor` back as `cursor` for the next. */
    listPetsPage: "listPets";
    /** List categories (beta in the service): one page; pass its `nextCursor` back as `cursor` for the next. */
    listCategoriesPage: "listCategories";
    /** List orders (experimental in the service): one page; pass its `nextCursor` back as `cursor` for the next. */
    listOrdersPage: "listOrders";
    /** Follow the event feed (experimental in the service): one page; pass its `nextCursor` back as `cursor` for the next. */
    listEventsPage: "listEvents";
    /** List webhook endpoints (experimental in the service): one page; pass its `nextCursor` back as `cursor` for the next. */
    listWebhookEndpointsPage: "listWebhookEndpoints";
    /** List an endpoint's delivery attempts (experimental in the service): one page; pass its `nextCursor` back as `cursor` for the next. */
    listWebhookDeliveriesPage: "listWebhookDeliveries";
}
