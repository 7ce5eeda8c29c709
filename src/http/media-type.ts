/** The media type of every JSON answer: bodies, Error bodies, the document as JSON. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8'
