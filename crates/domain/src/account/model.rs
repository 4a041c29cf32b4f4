//! Accounts: users, their sign-in sessions (browser cookies), API keys and display preferences.

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

use super::rules::{
    DEFAULT_FAILED_SIGN_INS_PER_ADDRESS, DEFAULT_SIGN_UPS_PER_ADDRESS, MAX_FAILED_SIGN_INS,
    SIGN_IN_WINDOW, SIGN_UP_WINDOW,
};
use crate::UserId;

/// What failed sign-ins are counted against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInSubject {
    /// A normalised email, known or not: its failed sign-ins.
    Email(String),
    /// The client's address: its failed sign-ins.
    Ip(String),
    /// The client's address: its sign-ups.
    SignUpAddress(String),
}

impl SignInSubject {
    /// The stored key: `email:<address>`, `ip:<address>` or `signup:<address>`.
    pub fn key(&self) -> String {
        match self {
            SignInSubject::Email(e) => format!("email:{e}"),
            SignInSubject::Ip(ip) => format!("ip:{ip}"),
            SignInSubject::SignUpAddress(ip) => format!("signup:{ip}"),
        }
    }
}

/// How many attempts a subject may make in a window before further ones wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttle {
    pub limit: u32,
    pub window: time::Duration,
}

/// A subject's attempts in its current window, as counted by the attempt just reserved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptCount {
    /// Attempts counted in the window, this one included.
    pub attempts: i64,
    pub window_start: OffsetDateTime,
}

/// The account limits an operator sets (sign-ups and failed sign-ins per client address); a limit
/// of 0 means unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountLimits {
    /// `WORT_SIGNUP=closed`: no sign-up (`404`); accounts come from `wort user create`.
    pub sign_up_open: bool,
    /// `WORT_SIGNUP_PER_HOUR`.
    pub sign_ups_per_address: u32,
    /// `WORT_SIGNIN_FAILURES_PER_ADDRESS`.
    pub failed_sign_ins_per_address: u32,
}

impl Default for AccountLimits {
    fn default() -> Self {
        AccountLimits {
            sign_up_open: true,
            sign_ups_per_address: DEFAULT_SIGN_UPS_PER_ADDRESS,
            failed_sign_ins_per_address: DEFAULT_FAILED_SIGN_INS_PER_ADDRESS,
        }
    }
}

impl AccountLimits {
    /// The throttle of a subject, `None` when its limit is 0 (unlimited).
    pub fn throttle(&self, subject: &SignInSubject) -> Option<Throttle> {
        let (limit, window) = match subject {
            SignInSubject::Email(_) => (MAX_FAILED_SIGN_INS, SIGN_IN_WINDOW),
            SignInSubject::Ip(_) => (self.failed_sign_ins_per_address, SIGN_IN_WINDOW),
            SignInSubject::SignUpAddress(_) => (self.sign_ups_per_address, SIGN_UP_WINDOW),
        };
        (limit > 0).then_some(Throttle { limit, window })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub id: UserId,
    pub email: String,
    pub name: String,
    pub created_at: OffsetDateTime,
}

/// A credential (an API key or a sign-in session's token) the store confirmed recently, as the
/// service remembers it between requests.
#[derive(Debug, Clone)]
pub struct RememberedCredential {
    pub user: User,
    /// The sign-in session a cookie token belongs to; `None` for an API key.
    pub session: Option<SignInSession>,
    /// When the credential itself stops being valid (the session's end, the key's expiry).
    pub expires_at: Option<OffsetDateTime>,
    /// When the store last confirmed it.
    pub checked_at: OffsetDateTime,
}

/// A user as stored, with the password hash: only the sign-in path sees this.
#[derive(Debug, Clone)]
pub struct UserCredentials {
    pub user: User,
    pub password_hash: String,
}

#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: String,
    pub name: String,
    pub password_hash: String,
}

/// A browser sign-in session (the `wort_session` cookie), never to be confused with a brew
/// session.
#[derive(Debug, Clone, PartialEq)]
pub struct SignInSession {
    pub id: Uuid,
    pub user_id: UserId,
    pub expires_at: OffsetDateTime,
}

/// An API key as listed: never the key itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiKey {
    pub id: Uuid,
    pub user_id: UserId,
    pub name: String,
    pub start: String,
    pub prefix: String,
    pub enabled: bool,
    pub expires_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
}

/// What the store needs to remember of a new key.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub name: String,
    pub start: String,
    pub key_hash: Vec<u8>,
    pub expires_at: Option<OffsetDateTime>,
}

/// A freshly generated key: `secret` is shown to its owner exactly once.
pub struct GeneratedApiKey {
    pub secret: String,
    pub record: NewApiKey,
}

/// Who a request acts for, once its credential has been verified.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    pub user: User,
    pub credential: Credential,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    ApiKey,
    SessionCookie,
}

/// `GET /v1/me`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Me {
    #[cfg_attr(feature = "openapi", schema(format = Uuid))]
    pub id: String,
    pub email: String,
    pub name: String,
}

impl From<&User> for Me {
    fn from(u: &User) -> Self {
        Me {
            id: u.id.0.to_string(),
            email: u.email.clone(),
            name: u.name.clone(),
        }
    }
}

/// A new sign-in session: the cookie's token (given to the browser once) and the stored record.
pub struct SignedIn {
    pub token: String,
    pub session: SignInSession,
    pub user: User,
}

/// Validated sign-up fields (also what `wort user create` gives).
#[derive(Debug, Clone)]
pub struct SignUp {
    pub name: String,
    /// Normalised (see [`super::rules::normalize_email`]).
    pub email: String,
    pub password: String,
}

/// A validated password change.
#[derive(Debug, Clone)]
pub struct PasswordChange {
    pub current: String,
    pub new: String,
    /// End every other sign-in session of the account (this one stays).
    pub revoke_other_sessions: bool,
}

macro_rules! preference_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            #[default]
            $($variant),+
        }

        impl $name {
            pub const ALL: &[Self] = &[$(Self::$variant),+];

            pub fn as_str(&self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }

            pub fn parse(s: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.as_str() == s)
            }

            pub fn names() -> Vec<&'static str> {
                Self::ALL.iter().map(Self::as_str).collect()
            }
        }
    };
}

preference_enum! {
    /// Amounts shown in metric (kg, g, L) or US units (lb, oz, gal). The first is the default.
    AmountUnits { Metric => "metric", Us => "us" }
}
preference_enum! {
    /// Gravity shown as specific gravity, °Plato or °Brix.
    GravityDisplay { Sg => "sg", Plato => "plato", Brix => "brix" }
}
preference_enum! {
    /// Colour shown as SRM or EBC.
    ColorDisplay { Srm => "srm", Ebc => "ebc" }
}
preference_enum! {
    /// Temperatures shown in °C or °F.
    TemperatureDisplay { C => "c", F => "f" }
}

/// How the web app shows numbers to this account (display preferences). The API's numbers are
/// metric and SG always; the one text wort writes for a reader, the generated brew-day checklist,
/// is rendered in these units (its `quantities` stay metric).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Preferences {
    pub amounts: AmountUnits,
    pub gravity: GravityDisplay,
    pub color: ColorDisplay,
    pub temperature: TemperatureDisplay,
    /// The ISO 4217 code of the currency the account's prices are in (`USD`, `EUR` …); null
    /// (the default): not said. Cost answers carry it; wort never converts.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "USD"))]
    pub currency: Option<&'static str>,
}

/// A validated partial update of the preferences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PreferencesPatch {
    pub amounts: Option<AmountUnits>,
    pub gravity: Option<GravityDisplay>,
    pub color: Option<ColorDisplay>,
    pub temperature: Option<TemperatureDisplay>,
    /// `Some(None)`: cleared.
    pub currency: Option<Option<&'static str>>,
}
