//! The account use cases: sign-up, sign-in (throttled, timing-equalised), sign-out, credentials,
//! API keys, preferences, password and name changes. The HTTP adapter and the CLI both call
//! these, so `wort user create` checks exactly what sign-up checks.

use std::sync::Arc;

use time::Duration;
use uuid::Uuid;

use super::credentials::{digest, generate_api_key, generate_session_token, looks_like_api_key};
use super::model::{
    AccountLimits, ApiKey, NewUser, PasswordChange, Preferences, PreferencesPatch, SignInSession,
    SignInSubject, SignUp, SignedIn, User,
};
use super::ports::{AccountRepository, PasswordHasher};
use super::rules::{SIGN_IN_LIFETIME, normalize_email};
use crate::ports::Clock;
use crate::{DomainError, DomainResult, UserId};

pub struct AccountService {
    repo: Arc<dyn AccountRepository>,
    hasher: Arc<dyn PasswordHasher>,
    clock: Arc<dyn Clock>,
    limits: AccountLimits,
}

/// A key just made: the listed record and the secret, shown to its owner this once.
pub struct CreatedApiKey {
    pub key: ApiKey,
    pub secret: String,
}

impl AccountService {
    pub fn new(
        repo: Arc<dyn AccountRepository>,
        hasher: Arc<dyn PasswordHasher>,
        clock: Arc<dyn Clock>,
        limits: AccountLimits,
    ) -> Self {
        AccountService {
            repo,
            hasher,
            clock,
            limits,
        }
    }

    /// Creates the account (the email normalised by [`check_sign_up`](super::rules)).
    pub async fn create_user(&self, fields: SignUp) -> DomainResult<User> {
        let password_hash = self.hasher.hash(fields.password).await?;
        let new = NewUser {
            email: fields.email,
            name: fields.name,
            password_hash,
        };
        self.repo.create_user(new, self.clock.now()).await
    }

    /// Creates the account and signs it in, when sign-up is open (else `NotFound`: the route is
    /// not there). Each attempt from `client_address` counts, before the password is hashed, so
    /// a flood from one address waits (`SignUpThrottled`) instead of costing a hash each.
    pub async fn sign_up(&self, fields: SignUp, client_address: &str) -> DomainResult<SignedIn> {
        if !self.limits.sign_up_open {
            return Err(DomainError::NotFound);
        }
        let by_address = SignInSubject::SignUpAddress(client_address.to_owned());
        if let Some(throttle) = self.limits.throttle(&by_address) {
            let now = self.clock.now();
            if let Some(retry_after_secs) =
                self.repo.retry_after(&by_address, throttle, now).await?
            {
                return Err(DomainError::SignUpThrottled { retry_after_secs });
            }
            self.repo
                .record_attempt(&by_address, throttle.window, now)
                .await?;
        }
        let user = self.create_user(fields).await?;
        self.start_sign_in(user).await
    }

    /// Checks email and password, throttled per email and per client address: after too many
    /// failures every attempt waits, the right password included.
    pub async fn sign_in(
        &self,
        email: &str,
        password: String,
        client_address: &str,
    ) -> DomainResult<SignedIn> {
        let now = self.clock.now();
        let by_email = SignInSubject::Email(normalize_email(email));
        let by_address = SignInSubject::Ip(client_address.to_owned());
        self.check_throttle(&[&by_email, &by_address]).await?;
        let SignInSubject::Email(email) = &by_email else {
            return Err(DomainError::Internal("sign-in subject".into()));
        };
        let found = self.repo.find_credentials(email).await?;
        let (user, stored) = match found {
            Some(c) => (Some(c.user), Some(c.password_hash)),
            None => (None, None),
        };
        let verified = self.hasher.verify(stored, password).await?;
        match user {
            Some(user) if verified => {
                // Only the email's count is cleared: a client that knows one password must not
                // be able to reset its address's count between guesses at other accounts.
                self.repo.clear_attempts(&by_email).await?;
                self.start_sign_in(user).await
            }
            _ => {
                self.record_failure(&by_email, now).await?;
                self.record_failure(&by_address, now).await?;
                Err(DomainError::InvalidCredentials)
            }
        }
    }

    async fn check_throttle(&self, subjects: &[&SignInSubject]) -> DomainResult<()> {
        let now = self.clock.now();
        let mut waits = Vec::new();
        for subject in subjects {
            if let Some(throttle) = self.limits.throttle(subject) {
                waits.extend(self.repo.retry_after(subject, throttle, now).await?);
            }
        }
        match waits.into_iter().max() {
            Some(retry_after_secs) => Err(DomainError::SignInThrottled { retry_after_secs }),
            None => Ok(()),
        }
    }

    /// Counts a failed sign-in for a subject that has a limit.
    async fn record_failure(
        &self,
        subject: &SignInSubject,
        now: time::OffsetDateTime,
    ) -> DomainResult<()> {
        match self.limits.throttle(subject) {
            Some(throttle) => {
                self.repo
                    .record_attempt(subject, throttle.window, now)
                    .await
            }
            None => Ok(()),
        }
    }

    async fn start_sign_in(&self, user: User) -> DomainResult<SignedIn> {
        let token = generate_session_token()?;
        let now = self.clock.now();
        let session = self
            .repo
            .create_sign_in(user.id, digest(&token), now, now + SIGN_IN_LIFETIME)
            .await?;
        Ok(SignedIn {
            token,
            session,
            user,
        })
    }

    /// Ends the sign-in session with this cookie token (nothing when there is none).
    pub async fn sign_out(&self, token: &str) -> DomainResult<()> {
        self.repo.delete_sign_in(&digest(token)).await
    }

    /// The live sign-in session a cookie token belongs to.
    pub async fn signed_in(&self, token: &str) -> DomainResult<Option<(SignInSession, User)>> {
        self.repo
            .find_sign_in(&digest(token), self.clock.now())
            .await
    }

    /// The owner of a valid API key; `None` for anything else (malformed, unknown, expired,
    /// revoked), so every failure looks the same.
    pub async fn authenticate_api_key(&self, key: &str) -> DomainResult<Option<User>> {
        if !looks_like_api_key(key) {
            return Ok(None);
        }
        self.repo
            .authenticate_api_key(&digest(key), self.clock.now())
            .await
    }

    pub async fn create_api_key(
        &self,
        user: UserId,
        name: String,
        expires_in_secs: Option<i64>,
    ) -> DomainResult<CreatedApiKey> {
        let now = self.clock.now();
        let expires_at = expires_in_secs.map(|secs| now + Duration::seconds(secs));
        let generated = generate_api_key(name, expires_at)?;
        let key = self
            .repo
            .create_api_key(user, generated.record, now)
            .await?;
        Ok(CreatedApiKey {
            key,
            secret: generated.secret,
        })
    }

    /// For the operator's CLI: a key for the account with this email (`NotFound` if none).
    pub async fn create_api_key_for(
        &self,
        email: &str,
        name: String,
    ) -> DomainResult<CreatedApiKey> {
        let found = self.repo.find_credentials(&normalize_email(email)).await?;
        let user = found.ok_or(DomainError::NotFound)?.user;
        self.create_api_key(user.id, name, None).await
    }

    pub async fn list_api_keys(&self, user: UserId) -> DomainResult<Vec<ApiKey>> {
        self.repo.list_api_keys(user).await
    }

    pub async fn delete_api_key(&self, user: UserId, key_id: Uuid) -> DomainResult<()> {
        self.repo.delete_api_key(user, key_id).await
    }

    pub async fn preferences(&self, user: UserId) -> DomainResult<Preferences> {
        self.repo.preferences(user).await
    }

    /// Only the preferences sent change; an empty patch changes nothing.
    pub async fn update_preferences(
        &self,
        user: UserId,
        patch: PreferencesPatch,
    ) -> DomainResult<Preferences> {
        if patch == PreferencesPatch::default() {
            return self.repo.preferences(user).await;
        }
        self.repo.update_preferences(user, patch).await
    }

    /// A wrong current password counts as a failed sign-in for the account's email (so it cannot
    /// be used to guess the password past the sign-in limit) and is `InvalidPassword`.
    pub async fn change_password(
        &self,
        user: &User,
        session: &SignInSession,
        change: PasswordChange,
    ) -> DomainResult<()> {
        let by_email = SignInSubject::Email(user.email.clone());
        self.check_throttle(&[&by_email]).await?;
        let stored = self.repo.password_hash(user.id).await?;
        if !self.hasher.verify(Some(stored), change.current).await? {
            self.record_failure(&by_email, self.clock.now()).await?;
            return Err(DomainError::InvalidPassword);
        }
        let hash = self.hasher.hash(change.new).await?;
        let keep_only = change.revoke_other_sessions.then_some(session.id);
        self.repo
            .set_password(user.id, hash, keep_only, self.clock.now())
            .await
    }

    pub async fn rename(&self, user: UserId, name: String) -> DomainResult<()> {
        self.repo.rename(user, name, self.clock.now()).await
    }
}
