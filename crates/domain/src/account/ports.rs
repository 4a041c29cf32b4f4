//! What the account service needs from outside: storage, and a place to hash passwords that is
//! not an async worker (argon2 takes tens of milliseconds of CPU).

use async_trait::async_trait;
use time::OffsetDateTime;
use uuid::Uuid;

use super::model::{
    ApiKey, AttemptCount, NewApiKey, NewUser, Preferences, PreferencesPatch, RememberedCredential,
    SignInSession, SignInSubject, User, UserCredentials,
};
use crate::{DomainResult, UserId};

#[async_trait]
pub trait AccountRepository: Send + Sync {
    /// Fails with `already_exists` at `["email"]` when the email is taken.
    async fn create_user(&self, new: NewUser, now: OffsetDateTime) -> DomainResult<User>;
    /// The user with this (normalised) email and its password hash.
    async fn find_credentials(&self, email: &str) -> DomainResult<Option<UserCredentials>>;
    /// The password hash of a user by id (`NotFound` when the account is gone).
    async fn password_hash(&self, user: UserId) -> DomainResult<String>;
    /// Stores a new password hash; with `keep_only`, every other sign-in session of the account
    /// ends in the same transaction.
    async fn set_password(
        &self,
        user: UserId,
        password_hash: String,
        keep_only: Option<Uuid>,
        now: OffsetDateTime,
    ) -> DomainResult<()>;
    async fn rename(&self, user: UserId, name: String, now: OffsetDateTime) -> DomainResult<()>;

    async fn create_sign_in(
        &self,
        user: UserId,
        token_hash: Vec<u8>,
        now: OffsetDateTime,
        expires_at: OffsetDateTime,
    ) -> DomainResult<SignInSession>;
    /// The live sign-in session (not expired at `now`) with this token digest, and its user.
    async fn find_sign_in(
        &self,
        token_hash: &[u8],
        now: OffsetDateTime,
    ) -> DomainResult<Option<(SignInSession, User)>>;
    async fn delete_sign_in(&self, token_hash: &[u8]) -> DomainResult<()>;

    /// Refuses with [`too_many_keys`](super::rules::too_many_keys) when the account already
    /// holds [`MAX_API_KEYS`](super::rules::MAX_API_KEYS), exactly at the cap under concurrency.
    async fn create_api_key(
        &self,
        user: UserId,
        new: NewApiKey,
        now: OffsetDateTime,
    ) -> DomainResult<ApiKey>;
    async fn list_api_keys(&self, user: UserId) -> DomainResult<Vec<ApiKey>>;
    /// `NotFound` when the key is unknown or another account's.
    async fn delete_api_key(&self, user: UserId, key_id: Uuid) -> DomainResult<()>;
    /// The owner of an enabled, unexpired key with this digest, and the key's expiry; refreshes
    /// `last_used_at` when it is older than [`KEY_TOUCH_INTERVAL`](super::rules::KEY_TOUCH_INTERVAL).
    async fn authenticate_api_key(
        &self,
        key_hash: &[u8],
        now: OffsetDateTime,
    ) -> DomainResult<Option<(User, Option<OffsetDateTime>)>>;

    async fn preferences(&self, user: UserId) -> DomainResult<Preferences>;
    /// Changes the preferences the patch names, in one statement (two patches at once, one per
    /// preference as the web app sends them, must not undo each other), and answers the set.
    async fn update_preferences(
        &self,
        user: UserId,
        patch: PreferencesPatch,
    ) -> DomainResult<Preferences>;

    /// Counts one attempt (a sign-in, a sign-up) in the subject's window, which starts again at
    /// 1 once `window` has passed, and answers the count with this attempt in it. Counting and
    /// reading are one atomic step, so simultaneous attempts (in this process or in another
    /// instance on the same database) each see a different count.
    async fn reserve_attempt(
        &self,
        subject: &SignInSubject,
        window: time::Duration,
        now: OffsetDateTime,
    ) -> DomainResult<AttemptCount>;
    /// Takes back one attempt counted in the window that started at `window_start`; nothing when
    /// that window has since been replaced or cleared.
    async fn release_attempt(
        &self,
        subject: &SignInSubject,
        window_start: OffsetDateTime,
    ) -> DomainResult<()>;
    /// Forgets every attempt of the subject.
    async fn clear_attempts(&self, subject: &SignInSubject) -> DomainResult<()>;
}

/// Password hashing off the request workers.
#[async_trait]
pub trait PasswordHasher: Send + Sync {
    async fn hash(&self, password: String) -> DomainResult<String>;
    /// Whether `password` matches `stored`; with no stored hash, a dummy is verified so that an
    /// unknown email costs as much time as a known one.
    async fn verify(&self, stored: Option<String>, password: String) -> DomainResult<bool>;
}

/// Credentials the store confirmed recently, remembered in this process so that most requests
/// authenticate without a round trip to the store. Keyed by the credential's digest.
///
/// The adapter must forget a user's credentials as soon as any process changes or revokes one
/// (a key or session deleted, the account changed or deleted), and must hand out no
/// [`stamp`](Self::stamp) while it cannot promise that (it has lost its news of such changes).
/// It bounds its memory.
pub trait CredentialCache: Send + Sync {
    /// The remembered credential with this digest.
    fn get(&self, digest: &[u8]) -> Option<RememberedCredential>;
    /// Taken before the store is read; `None` while nothing may be remembered.
    fn stamp(&self) -> Option<u64>;
    /// Remembers `credential`, unless anything was forgotten since `stamp` was taken (the
    /// credential read may be the one just revoked).
    fn remember(&self, stamp: u64, digest: Vec<u8>, credential: RememberedCredential);
    /// Forgets the credential with this digest.
    fn forget(&self, digest: &[u8]);
    /// Forgets every credential of this user.
    fn forget_user(&self, user: UserId);
}

/// Remembers nothing: every request asks the store (the CLI, tests of the service).
pub struct NoCredentialCache;

impl CredentialCache for NoCredentialCache {
    fn get(&self, _: &[u8]) -> Option<RememberedCredential> {
        None
    }
    fn stamp(&self) -> Option<u64> {
        None
    }
    fn remember(&self, _: u64, _: Vec<u8>, _: RememberedCredential) {}
    fn forget(&self, _: &[u8]) {}
    fn forget_user(&self, _: UserId) {}
}
