//! `Idempotency-Key` on every `POST` and `PATCH` under `/v1`: a write retried with the key it was
//! first sent with is applied exactly once, and the retry gets the first answer again.
//!
//! Only a request that carries the header is touched, and only when it has a valid credential
//! (the key belongs to the account): without one it passes through and the handler answers `401`
//! as usual. Then, in this order:
//!
//! * a malformed key (or more than one) is `400`;
//! * the body is read (through the body read deadline) and fingerprinted with the method and
//!   target; a body too large or too slow for any route passes on unguarded, for the handler to
//!   refuse as it always does;
//! * the request runs inside one database transaction that holds the key's lock and, when the
//!   answer is kept, writes the key's record with it
//!   ([`IdempotencyService::run_keyed`](wort_domain::idempotency::IdempotencyService::run_keyed)):
//!   a replay answers with the stored answer and `Idempotent-Replayed: true`, the same key with
//!   another request is `422 idempotency_key_reused`, a try while the first still runs (or while
//!   its commit's outcome is open) is `409` with `Retry-After`.
//!
//! So a write whose answer is lost after its `COMMIT` (the deadline's `503`, a client that hung
//! up, a killed instance) is never applied again: the record committed with it. And one that never
//! committed left nothing, so its retry applies it once.
//!
//! The two requests that wait on the AI provider (an analysis, a chat turn) cannot hold a
//! transaction across the provider's minute: their key is reserved in a row committed before
//! they run, and their answer stored after. A streamed chat turn is not stored: the key guards
//! the turn until its stream starts, and is released then; the thread shows what was saved.

use std::cell::RefCell;
use std::future::poll_fn;
use std::rc::Rc;

use actix_web::body::{BodyStream, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{HttpMessage, HttpResponse, ResponseError, web};
use futures_util::StreamExt;
use futures_util::stream;
use wort_domain::UserId;
use wort_domain::idempotency::rules::{self, KEY_HEADER, MAX_KEPT_BODY_BYTES, REPLAYED_HEADER};
use wort_domain::idempotency::{Answer, Begin, Fingerprint, IdempotencyKey, Keyed, Reservation};

use crate::credentials;
use crate::error::ApiError;
use crate::request_deadline::{waits_for_ai_provider, write_error};
use crate::state::AppState;

/// The largest request body any write route accepts (a recipe file to import); a larger one is
/// refused by its handler with `413` and never applied, so it needs no key.
const MAX_REQUEST_BYTES: usize = wort_interchange::limits::MAX_FILE_BYTES;

/// Whether the request is one the key applies to.
fn guarded(req: &ServiceRequest) -> bool {
    matches!(*req.method(), Method::POST | Method::PATCH)
        && req.path().starts_with("/v1/")
        && req.headers().contains_key(KEY_HEADER)
}

pub async fn idempotency(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if !guarded(&req) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(req.error_response(ApiError::Internal));
    };
    let user = match credentials::identify(req.request()).await {
        Ok(Some(identity)) => identity.user.id,
        Ok(None) => return Ok(next.call(req).await?.map_into_boxed_body()),
        // Every request here is a write: an unavailable database says it may have been applied.
        Err(e) => return Ok(req.error_response(write_error(e))),
    };
    let mut sent = req.headers().get_all(KEY_HEADER);
    let key = match (sent.next(), sent.next()) {
        (Some(value), None) => rules::parse_key(value.as_bytes()),
        _ => None,
    };
    let Some(key) = key else {
        return Ok(req.error_response(ApiError::bad_request(rules::malformed_key_message())));
    };
    let body = match read_body(&mut req).await {
        Some(body) => body,
        None => return Ok(next.call(req).await?.map_into_boxed_body()),
    };
    let target = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.path().to_owned(), |pq| pq.as_str().to_owned());
    let fingerprint = Fingerprint::of(req.method().as_str(), &target, &body);
    req.set_payload(buffered(body));
    let sent = Sent {
        user,
        key,
        fingerprint,
    };
    if waits_for_ai_provider(req.method(), req.path()) {
        reserved(req, next, state, sent).await
    } else {
        in_transaction(req, next, state, sent).await
    }
}

/// Whose key, and for which request.
struct Sent {
    user: UserId,
    key: IdempotencyKey,
    fingerprint: Fingerprint,
}

/// What the handler answered, kept for the client while its answer's record commits.
type Ran = Rc<RefCell<Option<Result<ServiceResponse<BoxBody>, actix_web::Error>>>>;

/// Runs the request inside the transaction that holds its key (see the module's comment).
async fn in_transaction(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    state: web::Data<AppState>,
    Sent {
        user,
        key,
        fingerprint,
    }: Sent,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let write = match state.idempotency.open_keyed(user, key, fingerprint).await {
        Ok(Ok(write)) => write,
        Ok(Err(told)) => return Ok(req.into_response(told_response(told))),
        Err(e) => return Ok(req.error_response(write_error(ApiError::from(e)))),
    };
    let ran: Ran = Rc::default();
    let work = {
        let ran = ran.clone();
        Box::pin(async move {
            let (answer, response) = answer_of(next.call(req).await).await;
            *ran.borrow_mut() = Some(response);
            answer
        })
    };
    let committed = write.run(work).await;
    let Some(response) = ran.borrow_mut().take() else {
        tracing::error!("a keyed write ran without an answer");
        return Err(ApiError::Internal.into());
    };
    match (committed, response) {
        (Ok(()), response) => response,
        // The handler answered but its commit failed: a success may or may not have been
        // applied; a refusal applied nothing either way and is told as it was.
        (Err(e), Ok(response)) if response.status().is_success() => {
            tracing::warn!(error = %e, "a keyed write's commit failed");
            let (request, _) = response.into_parts();
            Ok(ServiceResponse::new(
                request,
                ApiError::WriteUnavailable.error_response(),
            ))
        }
        (Err(e), response) => {
            tracing::warn!(error = %e, "could not keep the answer of a refused keyed write");
            response
        }
    }
}

fn told_response(told: Keyed) -> HttpResponse {
    match told {
        Keyed::Replay(answer) => replay(&answer),
        Keyed::AppliedNotKept => ApiError::Conflict(APPLIED_NOT_KEPT.into()).error_response(),
        Keyed::InProgress => in_progress(),
        Keyed::Reused => ApiError::Validation(vec![rules::key_reused()]).error_response(),
    }
}

const APPLIED_NOT_KEPT: &str =
    "The request with this Idempotency-Key was applied, but its answer was too large to keep";

fn in_progress() -> HttpResponse {
    let mut response = ApiError::Conflict(
        "A request with this Idempotency-Key is still being processed; retry later".into(),
    )
    .error_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// The handler's answer as kept for the key, and the answer for the client, its body whole.
async fn answer_of(
    result: Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error>,
) -> (Answer, Result<ServiceResponse<BoxBody>, actix_web::Error>) {
    let response = match result {
        Ok(response) => response.map_into_boxed_body(),
        Err(e) => {
            let status = e.as_response_error().status_code().as_u16();
            return (not_kept(status), Err(e));
        }
    };
    let status = response.status().as_u16();
    let content_type = header_text(&response, &header::CONTENT_TYPE);
    // A stream has no end to wait for; none of the routes run here answers with one.
    if content_type
        .as_deref()
        .is_some_and(|t| t.starts_with("text/event-stream"))
    {
        return (not_kept(status), Ok(response));
    }
    let location = header_text(&response, &header::LOCATION);
    let (request, response) = response.into_parts();
    let (head, body) = response.into_parts();
    match read_answer(body).await {
        Ok((kept, body)) => (
            Answer {
                status,
                content_type,
                location,
                body: kept.map(|b| b.to_vec()),
            },
            Ok(ServiceResponse::new(request, head.set_body(body))),
        ),
        Err(e) => (not_kept(500), Err(e)),
    }
}

/// An answer that is not kept (and so nothing of the request is committed).
fn not_kept(status: u16) -> Answer {
    Answer {
        status: if rules::answer_is_kept(status) {
            500
        } else {
            status
        },
        content_type: None,
        location: None,
        body: None,
    }
}

fn header_text(response: &ServiceResponse<BoxBody>, name: &header::HeaderName) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// A request that waits on the AI provider: the key reserved in a row of its own first.
async fn reserved(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    state: web::Data<AppState>,
    Sent {
        user,
        key,
        fingerprint,
    }: Sent,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let begin = match state.idempotency.begin(user, key, fingerprint).await {
        Ok(begin) => begin,
        Err(e) => return Ok(req.error_response(write_error(ApiError::from(e)))),
    };
    match begin {
        Begin::Run(reservation) => {
            // Spawned, so the handler and the answer's storing finish even if the client hangs
            // up and this future is dropped: the key then holds the true answer for its retry.
            let run = actix_web::rt::spawn(run(req, next, state, reservation));
            match run.await {
                Ok(result) => result,
                Err(e) => {
                    tracing::error!(detail = %e, "idempotent request task failed");
                    Err(ApiError::Internal.into())
                }
            }
        }
        Begin::Replay(answer) => Ok(req.into_response(replay(&answer))),
        Begin::AppliedNotKept => {
            Ok(req.error_response(ApiError::Conflict(APPLIED_NOT_KEPT.into())))
        }
        Begin::InProgress => Ok(req.into_response(in_progress())),
        Begin::Reused => Ok(req.error_response(ApiError::Validation(vec![rules::key_reused()]))),
    }
}

/// The whole request body, or `None` when it is larger than any route accepts or fails to
/// arrive: the request then gets back what was read followed by the rest (or the failure), so
/// its handler refuses it exactly as it would without the key.
async fn read_body(req: &mut ServiceRequest) -> Option<Bytes> {
    let mut payload = req.take_payload();
    let mut body = BytesMut::new();
    loop {
        match payload.next().await {
            None => return Some(body.freeze()),
            Some(Ok(chunk)) if body.len() + chunk.len() <= MAX_REQUEST_BYTES => {
                body.extend_from_slice(&chunk);
            }
            Some(Ok(chunk)) => {
                let read = stream::iter([Ok(body.freeze()), Ok(chunk)]);
                req.set_payload(Payload::Stream {
                    payload: Box::pin(read.chain(payload)),
                });
                return None;
            }
            Some(Err(e)) => {
                let read = stream::iter([Ok::<_, PayloadError>(body.freeze()), Err(e)]);
                req.set_payload(Payload::Stream {
                    payload: Box::pin(read),
                });
                return None;
            }
        }
    }
}

fn buffered(body: Bytes) -> Payload {
    Payload::Stream {
        payload: Box::pin(stream::once(async move { Ok(body) })),
    }
}

/// Runs the handler, then keeps its answer for the key (or releases the key).
async fn run(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    state: web::Data<AppState>,
    reservation: Reservation,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let response = match next.call(req).await {
        Ok(response) => response,
        Err(e) => {
            release(&state, reservation).await;
            return Err(e);
        }
    };
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if content_type
        .as_deref()
        .is_some_and(|t| t.starts_with("text/event-stream"))
    {
        release(&state, reservation).await;
        return Ok(response.map_into_boxed_body());
    }
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let (request, response) = response.into_parts();
    let (head, body) = response.into_parts();
    let (kept, body) = match read_answer(body).await {
        Ok(read) => read,
        Err(e) => {
            release(&state, reservation).await;
            return Err(e);
        }
    };
    let answer = Answer {
        status,
        content_type,
        location,
        body: kept.as_ref().map(|b| b.to_vec()),
    };
    if let Err(e) = state.idempotency.finish(reservation, answer).await {
        // The request was carried out; its answer goes to the client all the same. The key stays
        // reserved without an answer until it counts as abandoned.
        tracing::warn!(error = %e, "could not keep the answer of an idempotent request");
    }
    Ok(ServiceResponse::new(request, head.set_body(body)))
}

/// The answer's body: `(Some(bytes), body)` when it fits [`MAX_KEPT_BODY_BYTES`], else
/// `(None, body)` with the body still whole for the client.
async fn read_answer(
    body: impl MessageBody + 'static,
) -> Result<(Option<Bytes>, BoxBody), actix_web::Error> {
    let mut body = Box::pin(body);
    let mut kept = BytesMut::new();
    loop {
        match poll_fn(|cx| body.as_mut().poll_next(cx)).await {
            None => {
                let bytes = kept.freeze();
                return Ok((Some(bytes.clone()), BoxBody::new(bytes)));
            }
            Some(Ok(chunk)) if kept.len() + chunk.len() <= MAX_KEPT_BODY_BYTES => {
                kept.extend_from_slice(&chunk);
            }
            Some(Ok(chunk)) => {
                let read = stream::iter([Ok(kept.freeze()), Ok(chunk)]);
                let rest = stream::poll_fn(move |cx| body.as_mut().poll_next(cx));
                return Ok((None, BoxBody::new(BodyStream::new(read.chain(rest)))));
            }
            Some(Err(e)) => {
                let e: Box<dyn std::error::Error> = e.into();
                tracing::error!(detail = %e, "answer body failed");
                return Err(ApiError::Internal.into());
            }
        }
    }
}

async fn release(state: &AppState, reservation: Reservation) {
    if let Err(e) = state.idempotency.release(reservation).await {
        // The key stays reserved until it counts as abandoned; a retry meanwhile gets 409.
        tracing::warn!(error = %e, "could not release an idempotency key");
    }
}

fn replay(answer: &Answer) -> HttpResponse {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    let mut response = HttpResponse::build(status);
    if let Some(content_type) = &answer.content_type {
        response.insert_header((header::CONTENT_TYPE, content_type.as_str()));
    }
    if let Some(location) = &answer.location {
        response.insert_header((header::LOCATION, location.as_str()));
    }
    response.insert_header((REPLAYED_HEADER, "true"));
    // The first answer's own `Cache-Control` is not kept, and it may have carried a secret (a
    // webhook's, a device's token): a replay is never stored by a cache nor compressed.
    response.insert_header((header::CACHE_CONTROL, crate::caching::NO_STORE));
    response.body(answer.body.clone().unwrap_or_default())
}
