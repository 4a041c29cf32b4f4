//! `GET /bench/hello`: a constant JSON answer, the ceiling `cargo xtask bench` measures every
//! endpoint against (routing, middleware, JSON response; no credential, no database).
//!
//! Registered only when the server is started with `WORT_BENCH_ROUTES=1`, so production has no
//! such route (and it is not in the OpenAPI document).

use actix_web::{HttpResponse, web};

/// Adds the benchmark routes; call only when they were asked for.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/bench/hello", web::get().to(hello));
}

async fn hello() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(r#"{"hello":"world"}"#)
}

#[cfg(test)]
mod tests {
    use actix_web::{App, test};

    #[actix_web::test]
    async fn hello_is_constant_json() {
        let app = test::init_service(App::new().configure(super::configure)).await;
        let response = test::call_service(
            &app,
            test::TestRequest::get().uri("/bench/hello").to_request(),
        )
        .await;
        assert_eq!(response.status(), 200);
        assert_eq!(
            response.headers().get("content-type").unwrap(),
            "application/json"
        );
        assert_eq!(test::read_body(response).await, r#"{"hello":"world"}"#);
    }
}
