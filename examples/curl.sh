#!/usr/bin/env bash
# Every operation of the petstore service, and its common errors, as curl calls.
#
#   WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8 npm start     # the service, in another terminal
#   PETSTORE_API_KEY=pst_... examples/curl.sh
#
# PETSTORE_URL is the service's address, without /v1 (default http://127.0.0.1:3000, as
# `npm start`): the script adds /v1 to each path, and follows the service's root-relative
# links as they are. WEBHOOK_URL is where the webhook endpoint it adds points: by default
# http://127.0.0.1:8080/hooks, the receiver of docs/api/events-and-webhooks.md on this
# machine, which the service delivers to only when started with
# WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8 (without a receiver there, its deliveries fail, and
# the script does not mind). Against a deployment, a receiver of yours on the Internet.
# Each call states the status it expects: the script stops at the first other answer, so it
# doubles as a smoke test. It adds a few pets and orders, and changes or removes only what
# it made itself. Needs bash, curl and the usual shell tools, nothing else; no network
# beyond the service.
set -euo pipefail

PETSTORE_URL=${PETSTORE_URL:-http://127.0.0.1:3000}
PETSTORE_URL=${PETSTORE_URL%/}
WEBHOOK_URL=${WEBHOOK_URL:-http://127.0.0.1:8080/hooks}
: "${PETSTORE_API_KEY:?set PETSTORE_API_KEY to an API key (npm start prints one on the first run)}"
if [[ $PETSTORE_URL == */v1 ]]; then
  echo "PETSTORE_URL is the service's address without /v1: ${PETSTORE_URL%/v1}" >&2
  exit 2
fi

AUTH=(-H "Authorization: Bearer $PETSTORE_API_KEY")
JSON=(-H 'Content-Type: application/json')
PATCH=(-H 'Content-Type: application/merge-patch+json')
# The headers worth showing; the security, rate-limit and cache headers are on every answer.
SHOWN='^(link|etag|deprecation|sunset|idempotent-replayed|api-stability|www-authenticate):'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# step TEXT: what the next call shows, printed as a heading.
step () { printf '\n## %s\n' "$1"; }

# call STATUS METHOD PATH [curl options]: sends one request, prints the answer's status,
# the headers worth showing and the body, and fails unless the status is STATUS.
# The answer stays in $work/headers and $work/body for the checks that follow.
call () {
  local expected=$1 method=$2 path=$3 status
  shift 3
  printf '> %s %s\n' "$method" "$path"
  # curl leaves the file as it was when an answer has no body (204, 304).
  : > "$work/body"
  status=$(curl -sS -X "$method" -o "$work/body" -D "$work/headers" -w '%{http_code}' "$@" "$PETSTORE_URL$path")
  printf '< %s\n' "$status"
  tr -d '\r' < "$work/headers" | grep -iE "$SHOWN" | sed 's/^/< /' || true
  if [ -s "$work/body" ]; then cat "$work/body"; echo; fi
  if [ "$status" != "$expected" ]; then
    echo "FAILED: expected $expected, got $status" >&2
    if [ -n "${hint:-}" ]; then echo "$hint" >&2; fi
    exit 1
  fi
}

# header NAME: the value of that header in the last answer (names are case-insensitive).
header () {
  tr -d '\r' < "$work/headers" | awk -v name="$1" 'tolower($0) ~ "^" tolower(name) ": " { sub(/^[^:]*: /, ""); print }'
}

# expect TEXT [WHERE]: fails unless the last answer's body (or WHERE: "headers") holds TEXT.
expect () {
  if ! grep -qiF -- "$1" "$work/${2:-body}"; then
    echo "FAILED: the answer's ${2:-body} does not contain: $1" >&2
    exit 1
  fi
}

# The first "id" of the last body: the created pet's or order's (no JSON tool needed).
id () { grep -o '"id":[0-9]*' "$work/body" | head -n 1 | cut -d: -f2; }

step '401 unauthorized: without a key nothing is answered but a challenge'
call 401 GET /v1/pets
expect 'www-authenticate: Bearer realm="petstore"' headers

step 'createPet: 201, with the id the service assigned'
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -d '{"name": "Rex", "categoryId": 1, "status": "available"}'
pet=$(id)

step 'createPet, twice more, so that the listing below has a second page'
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -d '{"name": "Bella", "categoryId": 2, "status": "available"}'
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -d '{"name": "Max", "categoryId": 1, "status": "available"}'

step 'createPet with an Idempotency-Key: the first answer is kept for that key'
key="curl-example-$(date +%s)-$$"
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -H "Idempotency-Key: $key" -d '{"name": "Tom", "categoryId": 3}'
tom=$(id)

step 'the same create retried: the same pet again, Idempotent-Replayed, nothing new made'
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -H "Idempotency-Key: $key" -d '{"name": "Tom", "categoryId": 3}'
expect 'idempotent-replayed: true' headers
[ "$(id)" = "$tom" ] || { echo "FAILED: the retry made pet $(id), not $tom again" >&2; exit 1; }

step 'listPets: a page of 2 available pets, oldest first; Link names the next page'
call 200 GET '/v1/pets?limit=2&status=available' "${AUTH[@]}"
next=$(header link | sed -n 's/^<\([^>]*\)>; rel="next"$/\1/p')
[ -n "$next" ] || { echo 'FAILED: no Link rel="next" on a page that is not the last' >&2; exit 1; }

step 'listPets, following the Link: the next page, with the same limit and filter'
call 200 GET "$next" "${AUTH[@]}"

step 'getPet (deprecated): answers with Deprecation, Sunset and its successor in Link'
call 200 GET "/v1/pets/$pet" "${AUTH[@]}"
expect 'sunset: Thu, 05 Dec 2030 00:00:00 GMT' headers
expect 'link: </v1/pets>; rel="successor-version"' headers
etag=$(header etag)

step 'getPet with If-None-Match: 304 and no body while the pet is unchanged'
call 304 GET "/v1/pets/$pet" "${AUTH[@]}" -H "If-None-Match: $etag"

step 'updatePet (experimental): a merge patch, made only if the pet still has the ETag read'
call 200 PATCH "/v1/pets/$pet" "${AUTH[@]}" "${PATCH[@]}" -H "If-Match: $etag" -d '{"name": "Rexy"}'
expect '"name":"Rexy"'

step '412 precondition_failed: the same If-Match again, now stale; nothing changes'
call 412 PATCH "/v1/pets/$pet" "${AUTH[@]}" "${PATCH[@]}" -H "If-Match: $etag" -d '{"name": "Rex"}'

step '400 invalid_request: an unknown field (a typo) is refused, and named'
call 400 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -d '{"name": "Rex", "categoryId": 1, "categoryID": 2}'
expect "additional property 'categoryID'"

step '404 not_found: no such pet'
call 404 GET /v1/pets/9223372036854775807 "${AUTH[@]}"

step 'placeOrder (experimental, as API-Stability says): 201 with the order; the pet is pending'
call 201 POST /v1/store/orders "${AUTH[@]}" "${JSON[@]}" -d "{\"petId\": $pet, \"quantity\": 2}"
expect 'api-stability: experimental' headers
order=$(id)
call 200 GET "/v1/pets/$pet" "${AUTH[@]}"
expect '"status":"pending"'

step '409 conflict: a pet on order is not available, so it cannot be ordered again'
call 409 POST /v1/store/orders "${AUTH[@]}" "${JSON[@]}" -d "{\"petId\": $pet}"
expect 'is not available'

step 'getOrder (experimental): 200 with the order and its ETag'
call 200 GET "/v1/store/orders/$order" "${AUTH[@]}"
etag=$(header etag)

step 'getOrder with If-None-Match: 304 while the order is unchanged'
call 304 GET "/v1/store/orders/$order" "${AUTH[@]}" -H "If-None-Match: $etag"

step 'updateOrder (experimental): a merge patch of the ship date; 200 with the whole order'
call 200 PATCH "/v1/store/orders/$order" "${AUTH[@]}" -H 'Content-Type: application/merge-patch+json' -d '{"shipDate": "2026-12-01T10:00:00Z"}'
expect '"shipDate":"2026-12-01T10:00:00Z"'

step '409 conflict: while an open order holds the pet, its status cannot change'
call 409 PATCH "/v1/pets/$pet" "${AUTH[@]}" "${PATCH[@]}" -d '{"status": "sold"}'
expect "held by open order $order"

step 'listOrders: the orders, oldest first'
call 200 GET '/v1/store/orders?limit=5' "${AUTH[@]}"

step 'cancelOrder (beta): 204, the order is gone and its pet available again'
call 204 DELETE "/v1/store/orders/$order" "${AUTH[@]}"
call 200 GET "/v1/pets/$pet" "${AUTH[@]}"
expect '"status":"available"'

step '404 not_found: a cancelled order cannot be cancelled again'
call 404 DELETE "/v1/store/orders/$order" "${AUTH[@]}"

step 'updateOrder completing an order (it ships): its pet is sold'
call 201 POST /v1/store/orders "${AUTH[@]}" "${JSON[@]}" -d "{\"petId\": $pet}"
shipped=$(id)
call 200 PATCH "/v1/store/orders/$shipped" "${AUTH[@]}" -H 'Content-Type: application/merge-patch+json' -d '{"complete": true}'
expect '"complete":true'
call 200 GET "/v1/pets/$pet" "${AUTH[@]}"
expect '"status":"sold"'

step '409 conflict: an order that is complete (shipped) cannot be cancelled'
call 409 DELETE "/v1/store/orders/$shipped" "${AUTH[@]}"

step 'listEvents (experimental): every change above as an event, oldest first'
call 200 GET '/v1/events?limit=2' "${AUTH[@]}"
expect '"type":"pet.created"'
event=$(grep -o '"id":"evt_[^"]*"' "$work/body" | head -n 1 | cut -d'"' -f4)

step 'getEvent (experimental): one event, as the feed lists it'
call 200 GET "/v1/events/$event" "${AUTH[@]}"

step 'listEvents of one type, to its end: every page links to the next, an empty one too'
next='/v1/events?type=order.cancelled'
call 200 GET "$next" "${AUTH[@]}"
expect '"type":"order.cancelled"'
while [ "$(cat "$work/body")" != '[]' ]; do
  next=$(header link | sed -E 's/^<([^>]*)>.*/\1/')
  call 200 GET "$next" "${AUTH[@]}"
done

step 'the same Link with wait=1: no new event within a second, so 200 [] and the Link to poll on'
call 200 GET "${next/wait=0/wait=1}" "${AUTH[@]}"
expect 'rel="next"' headers

step 'createWebhookEndpoint (experimental): the pet events POSTed to a URL; its secret is in this answer only'
hint="The service refused WEBHOOK_URL ($WEBHOOK_URL): start it with WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8 for a receiver on this machine, or set WEBHOOK_URL to a public https receiver."
call 201 POST /v1/webhook-endpoints "${AUTH[@]}" "${JSON[@]}" -d "{\"url\": \"$WEBHOOK_URL\", \"events\": [\"pet.*\"], \"description\": \"curl example\"}"
hint=
expect '"secret":"whsec_'
endpoint=$(grep -o '"id":[0-9]*' "$work/body" | head -n 1 | cut -d: -f2)

step '400 invalid_webhook_url: webhooks go to public addresses only'
call 400 POST /v1/webhook-endpoints "${AUTH[@]}" "${JSON[@]}" -d '{"url": "https://10.0.0.7/hooks", "events": ["*"]}'
expect '"code":"invalid_webhook_url"'

step 'listWebhookEndpoints and getWebhookEndpoint: never with the secret'
call 200 GET '/v1/webhook-endpoints?limit=5' "${AUTH[@]}"
call 200 GET "/v1/webhook-endpoints/$endpoint" "${AUTH[@]}"

step 'a pet added: its pet.created event is delivered to the endpoint'
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -d '{"name": "Hook", "categoryId": 1}'

step 'listWebhookDeliveries: every attempt, newest first (pending until it is made)'
call 200 GET "/v1/webhook-endpoints/$endpoint/deliveries" "${AUTH[@]}"
expect '"eventId":"evt_'

step 'rotateWebhookSecret: a new secret, and the old one still signs for an hour'
call 200 POST "/v1/webhook-endpoints/$endpoint/rotate-secret" "${AUTH[@]}" "${JSON[@]}" -d '{"graceSeconds": 3600}'
expect '"previousSecretExpiresAt"'

step 'updateWebhookEndpoint: a merge patch that disables it'
call 200 PATCH "/v1/webhook-endpoints/$endpoint" "${AUTH[@]}" "${PATCH[@]}" -d '{"enabled": false}'
expect '"enabled":false'

step '409 conflict: a disabled endpoint is enabled before it recovers'
call 409 POST "/v1/webhook-endpoints/$endpoint/recover" "${AUTH[@]}" "${JSON[@]}" -d '{"since": "2026-01-01T00:00:00Z"}'

step 'enabled again, recoverWebhookEndpoint sends what it missed since then'
call 200 PATCH "/v1/webhook-endpoints/$endpoint" "${AUTH[@]}" "${PATCH[@]}" -d '{"enabled": true}'
call 202 POST "/v1/webhook-endpoints/$endpoint/recover" "${AUTH[@]}" "${JSON[@]}" -d "{\"since\": \"$(date -u +%Y-%m-%dT00:00:00Z)\"}"

step 'deleteWebhookEndpoint: nothing more is sent to it'
call 204 DELETE "/v1/webhook-endpoints/$endpoint" "${AUTH[@]}"

step 'createCategory: Dogs, Cats and Birds (201, with their assigned ids)'
# Names are unique: the run's own, so that the script can run again on the same database.
run=$(date +%s)-$$
call 201 POST /v1/categories "${AUTH[@]}" "${JSON[@]}" -d "{\"name\": \"Dogs $run\", \"description\": \"Every dog of the store\"}"
dogs=$(grep -o '"id":[0-9]*' "$work/body" | head -n 1 | cut -d: -f2)
call 201 POST /v1/categories "${AUTH[@]}" "${JSON[@]}" -d "{\"name\": \"Cats $run\"}"
call 201 POST /v1/categories "${AUTH[@]}" "${JSON[@]}" -d "{\"name\": \"Birds $run\"}"
birds=$(grep -o '"id":[0-9]*' "$work/body" | head -n 1 | cut -d: -f2)

step '409 conflict: names are unique, whatever their case'
call 409 POST /v1/categories "${AUTH[@]}" "${JSON[@]}" -d "{\"name\": \"DOGS $run\"}"
expect '"code":"conflict"'

step 'listCategories and getCategory (with its ETag)'
call 200 GET '/v1/categories?limit=2' "${AUTH[@]}"
call 200 GET "/v1/categories/$dogs" "${AUTH[@]}"

step 'updateCategory: a merge patch that renames it'
call 200 PATCH "/v1/categories/$dogs" "${AUTH[@]}" "${PATCH[@]}" -d "{\"name\": \"Hounds $run\"}"
expect "\"name\":\"Hounds $run\""

step 'listPets by category and status: the available pets of one category, a page at a time'
call 201 POST /v1/pets "${AUTH[@]}" "${JSON[@]}" -d "{\"name\": \"Tweety\", \"categoryId\": $birds, \"status\": \"available\"}"
call 200 GET "/v1/pets?categoryId=$birds&status=available&limit=10" "${AUTH[@]}"
expect '"name":"Tweety"'

step 'deleteCategory: the category goes, its pets keep their categoryId'
call 204 DELETE "/v1/categories/$birds" "${AUTH[@]}"
call 200 GET "/v1/pets?categoryId=$birds" "${AUTH[@]}"
expect '"name":"Tweety"'

printf '\nAll calls answered as expected.\n'
