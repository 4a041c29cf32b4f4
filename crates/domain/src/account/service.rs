//! The account use cases: sign-up, sign-in (throttled, timing-equalised), sign-out, credentials,
//! API keys, preferences, password and name changes. The HTTP adapter and the CLI both call
//! these, so `wort user create` checks exactly what sign-up checks.

use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::credentials::{digest, generate_api_key, generate_session_token, looks_like_api_key};
use super::model::{
    AccountLimits, ApiKey, NewUser, PasswordChange, Preferences, PreferencesPatch,
    RememberedCredential, SignInSession, SignInSubject, SignUp, SignedIn, User,
};
use super::ports::{AccountRepository, CredentialCache, NoCredentialCache, PasswordHasher};
use super::rules::{SIGN_IN_LIFETIME, attempt_refused, normalize_email, remembered_is_usable};
use crate::ports::Clock;
use crate::{DomainError, DomainResult, UserId};

pub struct AccountService {
    repo: Arc<dyn AccountRepository>,
    hasher: Arc<dyn PasswordHasher>,
    clock: Arc<dyn Clock>,
    limits: AccountLimits,
    credentials: Arc<dyn CredentialCache>,
}

/// Attempts counted for their subjects (with the start of the window each was counted in)
/// before a password is hashed or checked. Each stays counted, as a failed sign-in or a sign-up,
/// unless given back, so a burst is judged by the attempts it started, not by those finished.
/// Dropped on an error, they stay counted: a check that could not finish is no success.
#[must_use = "reserved attempts are kept (they count) or released"]
struct Reserved(Vec<(SignInSubject, OffsetDateTime)>);

impl Reserved {
    /// The attempts stay counted.
    fn keep(self) {}

    /// The attempts of every other subject.
    fn without(self, subject: &SignInSubject) -> Reserved {
        Reserved(self.0.into_iter().filter(|(s, _)| s != subject).collect())
    }
}

fn sign_in_throttled(retry_after_secs: u64) -> DomainError {
    DomainError::SignInThrottled { retry_after_secs }
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
            credentials: Arc::new(NoCredentialCache),
        }
    }

    /// Authenticates from `cache` what the store confirmed recently (see [`CredentialCache`]).
    #[must_use]
    pub fn with_credential_cache(mut self, cache: Arc<dyn CredentialCache>) -> Self {
        self.credentials = cache;
        self
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
    /// not there). Each attempt from `client_address` is counted before the password is hashed,
    /// so a flood from one address, simultaneous or not, waits (`SignUpThrottled`) past the limit
    /// instead of costing a hash each.
    pub async fn sign_up(&self, fields: SignUp, client_address: &str) -> DomainResult<SignedIn> {
        if !self.limits.sign_up_open {
            return Err(DomainError::NotFound);
        }
        let by_address = SignInSubject::SignUpAddress(client_address.to_owned());
        let reserved = self
            .reserve(vec![by_address], |retry_after_secs| {
                DomainError::SignUpThrottled { retry_after_secs }
            })
            .await?;
        // Every sign-up counts, whether or not the account is made (a taken email): each one
        // costs a hash.
        reserved.keep();
        let user = self.create_user(fields).await?;
        self.start_sign_in(user).await
    }

    /// Checks email and password, throttled per email and per client address: after too many
    /// failures every attempt waits, the right password included. The attempt is counted before
    /// the password is checked, so simultaneous guesses cannot pass the limit together.
    pub async fn sign_in(
        &self,
        email: &str,
        password: String,
        client_address: &str,
    ) -> DomainResult<SignedIn> {
        let email = normalize_email(email);
        let by_email = SignInSubject::Email(email.clone());
        let by_address = SignInSubject::Ip(client_address.to_owned());
        let reserved = self
            .reserve(vec![by_email.clone(), by_address], sign_in_throttled)
            .await?;
        let found = self.repo.find_credentials(&email).await?;
        let (user, stored) = match found {
            Some(c) => (Some(c.user), Some(c.password_hash)),
            None => (None, None),
        };
        let verified = self.hasher.verify(stored, password).await?;
        match user {
            Some(user) if verified => {
                // A success is no failure: the email's count is cleared and the address's
                // attempt given back. Only the email's: a client that knows one password must
                // not be able to reset its address's count between guesses at other accounts.
                self.repo.clear_attempts(&by_email).await?;
                self.release(reserved.without(&by_email)).await?;
                self.start_sign_in(user).await
            }
            _ => {
                reserved.keep();
                Err(DomainError::InvalidCredentials)
            }
        }
    }

    /// Counts an attempt for each subject that has a limit, before the work the limit guards.
    /// The count is taken and read in one step, so of simultaneous attempts at most the limit
    /// go ahead; when any subject is past its limit, the attempt is refused (`refused`, with the
    /// longest wait) and every count it took is given back, so refusals never add up (an
    /// address already waiting cannot use up an email's guesses).
    async fn reserve(
        &self,
        subjects: Vec<SignInSubject>,
        refused: fn(u64) -> DomainError,
    ) -> DomainResult<Reserved> {
        let now = self.clock.now();
        let mut held = Vec::new();
        let mut wait: Option<u64> = None;
        for subject in subjects {
            let Some(throttle) = self.limits.throttle(&subject) else {
                continue;
            };
            let counted = self
                .repo
                .reserve_attempt(&subject, throttle.window, now)
                .await?;
            if let Some(secs) = attempt_refused(throttle, counted, now) {
                wait = Some(wait.map_or(secs, |longest| longest.max(secs)));
            }
            held.push((subject, counted.window_start));
        }
        let reserved = Reserved(held);
        match wait {
            Some(retry_after_secs) => {
                self.release(reserved).await?;
                Err(refused(retry_after_secs))
            }
            None => Ok(reserved),
        }
    }

    /// Gives back the attempts: they turned out not to be failures.
    async fn release(&self, reserved: Reserved) -> DomainResult<()> {
        for (subject, window_start) in reserved.0 {
            self.repo.release_attempt(&subject, window_start).await?;
        }
        Ok(())
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
        let digest = digest(token);
        self.repo.delete_sign_in(&digest).await?;
        self.credentials.forget(&digest);
        Ok(())
    }

    /// The live sign-in session a cookie token belongs to.
    pub async fn signed_in(&self, token: &str) -> DomainResult<Option<(SignInSession, User)>> {
        let digest = digest(token);
        let now = self.clock.now();
        if let Some(known) = self.credentials.get(&digest)
            && remembered_is_usable(&known, now)
            && let Some(session) = known.session
        {
            return Ok(Some((session, known.user)));
        }
        let stamp = self.credentials.stamp();
        let found = self.repo.find_sign_in(&digest, now).await?;
        if let (Some(stamp), Some((session, user))) = (stamp, &found) {
            let credential = RememberedCredential {
                user: user.clone(),
                session: Some(session.clone()),
                expires_at: Some(session.expires_at),
                checked_at: now,
            };
            self.credentials.remember(stamp, digest, credential);
        }
        Ok(found)
    }

    /// The owner of a valid API key; `None` for anything else (malformed, unknown, expired,
    /// revoked), so every failure looks the same.
    pub async fn authenticate_api_key(&self, key: &str) -> DomainResult<Option<User>> {
        if !looks_like_api_key(key) {
            return Ok(None);
        }
        let digest = digest(key);
        let now = self.clock.now();
        // A session's entry never stands for a key (a session token sent as a key).
        if let Some(known) = self.credentials.get(&digest)
            && known.session.is_none()
            && remembered_is_usable(&known, now)
        {
            return Ok(Some(known.user));
        }
        let stamp = self.credentials.stamp();
        let Some((user, expires_at)) = self.repo.authenticate_api_key(&digest, now).await? else {
            return Ok(None);
        };
        if let Some(stamp) = stamp {
            let credential = RememberedCredential {
                user: user.clone(),
                session: None,
                expires_at,
                checked_at: now,
            };
            self.credentials.remember(stamp, digest, credential);
        }
        Ok(Some(user))
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
        self.repo.delete_api_key(user, key_id).await?;
        // This process forgets at once; the others hear of it from the store.
        self.credentials.forget_user(user);
        Ok(())
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
        let reserved = self.reserve(vec![by_email], sign_in_throttled).await?;
        let stored = self.repo.password_hash(user.id).await?;
        if !self.hasher.verify(Some(stored), change.current).await? {
            reserved.keep();
            return Err(DomainError::InvalidPassword);
        }
        self.release(reserved).await?;
        let hash = self.hasher.hash(change.new).await?;
        let keep_only = change.revoke_other_sessions.then_some(session.id);
        self.repo
            .set_password(user.id, hash, keep_only, self.clock.now())
            .await?;
        self.credentials.forget_user(user.id);
        Ok(())
    }

    pub async fn rename(&self, user: UserId, name: String) -> DomainResult<()> {
        self.repo.rename(user, name, self.clock.now()).await?;
        // Remembered credentials carry the user's name.
        self.credentials.forget_user(user);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
    //! Sign-in and sign-up throttling against in-memory ports; the ports' futures are stepped by
    //! hand, so a burst of attempts can be interleaved as a busy server interleaves them.

    use std::collections::HashMap;
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Context, Poll, Waker};

    use async_trait::async_trait;
    use time::macros::datetime;

    use super::*;
    use crate::account::model::{AttemptCount, UserCredentials};
    use crate::account::{MAX_FAILED_SIGN_INS, NewApiKey};

    const PASSWORD: &str = "correct horse battery";
    const EMAIL: &str = "ada@example.com";

    /// Polls every future in turn until all are done: each runs up to its next wait, then the
    /// next one gets a turn, as simultaneous requests on one server do.
    fn run_together<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
        let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
        let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
        let mut cx = Context::from_waker(Waker::noop());
        while outputs.iter().any(Option::is_none) {
            for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
                if output.is_none()
                    && let Poll::Ready(done) = future.as_mut().poll(&mut cx)
                {
                    *output = Some(done);
                }
            }
        }
        outputs.into_iter().flatten().collect()
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        run_together(vec![future]).into_iter().next().unwrap()
    }

    /// Waits once: a password hash takes long enough that every other request gets a turn.
    struct Slow(bool);
    impl Future for Slow {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                Poll::Ready(())
            } else {
                self.0 = true;
                Poll::Pending
            }
        }
    }

    /// Hashes are the password with a prefix; every hash and check is counted and takes a turn.
    #[derive(Default)]
    struct FakeHasher {
        calls: AtomicUsize,
    }
    #[async_trait]
    impl PasswordHasher for FakeHasher {
        async fn hash(&self, password: String) -> DomainResult<String> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            Slow(false).await;
            Ok(format!("hash:{password}"))
        }
        async fn verify(&self, stored: Option<String>, password: String) -> DomainResult<bool> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            Slow(false).await;
            Ok(stored == Some(format!("hash:{password}")))
        }
    }

    /// Users by email and attempt counts by subject key, the counts changed atomically as the
    /// database's upsert changes them. Reading and counting take a turn first, as a round trip
    /// to the database does.
    #[derive(Default)]
    struct MemAccounts {
        users: Mutex<HashMap<String, UserCredentials>>,
        attempts: Mutex<HashMap<String, AttemptCount>>,
    }

    impl MemAccounts {
        fn attempts(&self, subject: &SignInSubject) -> i64 {
            let counts = self.attempts.lock().unwrap();
            counts.get(&subject.key()).map_or(0, |c| c.attempts)
        }
    }

    fn unused() -> DomainError {
        DomainError::Internal("not used by these tests".into())
    }

    #[async_trait]
    impl AccountRepository for MemAccounts {
        async fn create_user(&self, new: NewUser, now: OffsetDateTime) -> DomainResult<User> {
            let user = User {
                id: UserId(crate::new_id()),
                email: new.email.clone(),
                name: new.name,
                created_at: now,
            };
            let credentials = UserCredentials {
                user: user.clone(),
                password_hash: new.password_hash,
            };
            self.users.lock().unwrap().insert(new.email, credentials);
            Ok(user)
        }
        async fn find_credentials(&self, email: &str) -> DomainResult<Option<UserCredentials>> {
            Slow(false).await;
            Ok(self.users.lock().unwrap().get(email).cloned())
        }
        async fn password_hash(&self, user: UserId) -> DomainResult<String> {
            let users = self.users.lock().unwrap();
            let found = users.values().find(|c| c.user.id == user);
            found
                .map(|c| c.password_hash.clone())
                .ok_or(DomainError::NotFound)
        }
        async fn set_password(
            &self,
            user: UserId,
            password_hash: String,
            _: Option<Uuid>,
            _: OffsetDateTime,
        ) -> DomainResult<()> {
            let mut users = self.users.lock().unwrap();
            let found = users.values_mut().find(|c| c.user.id == user);
            found.ok_or(DomainError::NotFound)?.password_hash = password_hash;
            Ok(())
        }
        async fn rename(&self, _: UserId, _: String, _: OffsetDateTime) -> DomainResult<()> {
            Err(unused())
        }
        async fn create_sign_in(
            &self,
            user: UserId,
            _: Vec<u8>,
            _: OffsetDateTime,
            expires_at: OffsetDateTime,
        ) -> DomainResult<SignInSession> {
            Ok(SignInSession {
                id: crate::new_id(),
                user_id: user,
                expires_at,
            })
        }
        async fn find_sign_in(
            &self,
            _: &[u8],
            _: OffsetDateTime,
        ) -> DomainResult<Option<(SignInSession, User)>> {
            Err(unused())
        }
        async fn delete_sign_in(&self, _: &[u8]) -> DomainResult<()> {
            Err(unused())
        }
        async fn create_api_key(
            &self,
            _: UserId,
            _: NewApiKey,
            _: OffsetDateTime,
        ) -> DomainResult<ApiKey> {
            Err(unused())
        }
        async fn list_api_keys(&self, _: UserId) -> DomainResult<Vec<ApiKey>> {
            Err(unused())
        }
        async fn delete_api_key(&self, _: UserId, _: Uuid) -> DomainResult<()> {
            Err(unused())
        }
        async fn authenticate_api_key(
            &self,
            _: &[u8],
            _: OffsetDateTime,
        ) -> DomainResult<Option<(User, Option<OffsetDateTime>)>> {
            Err(unused())
        }
        async fn preferences(&self, _: UserId) -> DomainResult<Preferences> {
            Err(unused())
        }
        async fn update_preferences(
            &self,
            _: UserId,
            _: PreferencesPatch,
        ) -> DomainResult<Preferences> {
            Err(unused())
        }
        async fn reserve_attempt(
            &self,
            subject: &SignInSubject,
            window: Duration,
            now: OffsetDateTime,
        ) -> DomainResult<AttemptCount> {
            Slow(false).await;
            let mut counts = self.attempts.lock().unwrap();
            let count = counts.entry(subject.key()).or_insert(AttemptCount {
                attempts: 0,
                window_start: now,
            });
            if count.window_start <= now - window {
                *count = AttemptCount {
                    attempts: 0,
                    window_start: now,
                };
            }
            count.attempts += 1;
            Ok(*count)
        }
        async fn release_attempt(
            &self,
            subject: &SignInSubject,
            window_start: OffsetDateTime,
        ) -> DomainResult<()> {
            Slow(false).await;
            let mut counts = self.attempts.lock().unwrap();
            if let Some(count) = counts.get_mut(&subject.key())
                && count.window_start == window_start
            {
                count.attempts = (count.attempts - 1).max(0);
            }
            Ok(())
        }
        async fn clear_attempts(&self, subject: &SignInSubject) -> DomainResult<()> {
            Slow(false).await;
            self.attempts.lock().unwrap().remove(&subject.key());
            Ok(())
        }
    }

    struct FixedClock(OffsetDateTime);
    impl Clock for FixedClock {
        fn now(&self) -> OffsetDateTime {
            self.0
        }
    }

    struct Setup {
        service: AccountService,
        repo: Arc<MemAccounts>,
        hasher: Arc<FakeHasher>,
    }

    /// A service with one account (`EMAIL`, `PASSWORD`) and the given per-address limits.
    fn setup(sign_ups_per_address: u32, failed_sign_ins_per_address: u32) -> Setup {
        let repo = Arc::new(MemAccounts::default());
        let hasher = Arc::new(FakeHasher::default());
        let service = AccountService::new(
            repo.clone(),
            hasher.clone(),
            Arc::new(FixedClock(datetime!(2026-11-25 12:00 UTC))),
            AccountLimits {
                sign_up_open: true,
                sign_ups_per_address,
                failed_sign_ins_per_address,
            },
        );
        block_on(service.create_user(SignUp {
            name: "Ada".into(),
            email: EMAIL.into(),
            password: PASSWORD.into(),
        }))
        .unwrap();
        hasher.calls.store(0, Ordering::SeqCst);
        Setup {
            service,
            repo,
            hasher,
        }
    }

    fn by_email() -> SignInSubject {
        SignInSubject::Email(EMAIL.into())
    }

    fn is_sign_in_throttled(result: &DomainResult<SignedIn>) -> bool {
        matches!(result, Err(DomainError::SignInThrottled { .. }))
    }

    #[test]
    fn simultaneous_wrong_passwords_get_the_limit_and_the_rest_wait_unhashed() {
        let s = setup(0, 0);
        let attempts = (0..60)
            .map(|_| s.service.sign_in(EMAIL, "wrong guess".into(), "192.0.2.1"))
            .collect();
        let results = run_together(attempts);
        let failed = results
            .iter()
            .filter(|r| matches!(r, Err(DomainError::InvalidCredentials)))
            .count();
        let waited = results.iter().filter(|r| is_sign_in_throttled(r)).count();
        assert_eq!((failed, waited), (10, 50));
        assert_eq!(
            s.hasher.calls.load(Ordering::SeqCst),
            10,
            "one check per guess"
        );
        // The refused attempts gave their counts back: only the ten guesses count.
        assert_eq!(s.repo.attempts(&by_email()), i64::from(MAX_FAILED_SIGN_INS));
        let right = block_on(s.service.sign_in(EMAIL, PASSWORD.into(), "192.0.2.1"));
        assert!(is_sign_in_throttled(&right));
    }

    #[test]
    fn a_burst_from_one_address_gets_its_limit_across_emails() {
        let s = setup(0, 5);
        let emails: Vec<String> = (0..40).map(|i| format!("guess-{i}@example.com")).collect();
        let attempts = emails
            .iter()
            .map(|email| s.service.sign_in(email, "wrong guess".into(), "192.0.2.7"))
            .collect();
        let results = run_together(attempts);
        let failed = results
            .iter()
            .filter(|r| matches!(r, Err(DomainError::InvalidCredentials)))
            .count();
        assert_eq!(failed, 5);
        assert_eq!(s.hasher.calls.load(Ordering::SeqCst), 5);
        // Emails whose attempt the address refused keep no count: a client that is already
        // waiting cannot use up someone else's guesses.
        let untouched = emails
            .iter()
            .filter(|e| s.repo.attempts(&SignInSubject::Email((*e).clone())) == 0)
            .count();
        assert_eq!(untouched, 35);
    }

    #[test]
    fn a_success_clears_the_email_and_gives_back_only_its_own_address_attempt() {
        let s = setup(0, 100);
        let address = SignInSubject::Ip("192.0.2.9".into());
        for _ in 0..3 {
            let wrong = block_on(s.service.sign_in(EMAIL, "wrong guess".into(), "192.0.2.9"));
            assert!(matches!(wrong, Err(DomainError::InvalidCredentials)));
        }
        let right = block_on(s.service.sign_in(EMAIL, PASSWORD.into(), "192.0.2.9"));
        assert_eq!(right.unwrap().user.email, EMAIL);
        assert_eq!(s.repo.attempts(&by_email()), 0);
        assert_eq!(s.repo.attempts(&address), 3, "the address's failures stay");
    }

    #[test]
    fn simultaneous_sign_ups_from_one_address_never_pass_the_limit() {
        let s = setup(3, 0);
        let sign_ups = (0..30)
            .map(|i| {
                let fields = SignUp {
                    name: "Flood".into(),
                    email: format!("flood-{i}@example.com"),
                    password: PASSWORD.into(),
                };
                s.service.sign_up(fields, "192.0.2.3")
            })
            .collect();
        let results = run_together(sign_ups);
        let made = results.iter().filter(|r| r.is_ok()).count();
        let waited = results
            .iter()
            .filter(|r| matches!(r, Err(DomainError::SignUpThrottled { .. })))
            .count();
        assert_eq!((made, waited), (3, 27));
        assert_eq!(
            s.hasher.calls.load(Ordering::SeqCst),
            3,
            "a hash per account made"
        );
        let address = SignInSubject::SignUpAddress("192.0.2.3".into());
        assert_eq!(s.repo.attempts(&address), 3);
    }

    #[test]
    fn wrong_current_passwords_count_as_failed_sign_ins_and_a_right_one_does_not() {
        let s = setup(0, 0);
        let signed_in = block_on(s.service.sign_in(EMAIL, PASSWORD.into(), "192.0.2.1")).unwrap();
        let change = |current: &str| PasswordChange {
            current: current.into(),
            new: "a new horse battery".into(),
            revoke_other_sessions: false,
        };
        let wrong = block_on(s.service.change_password(
            &signed_in.user,
            &signed_in.session,
            change("wrong guess"),
        ));
        assert!(matches!(wrong, Err(DomainError::InvalidPassword)));
        assert_eq!(s.repo.attempts(&by_email()), 1);
        block_on(
            s.service
                .change_password(&signed_in.user, &signed_in.session, change(PASSWORD)),
        )
        .unwrap();
        assert_eq!(
            s.repo.attempts(&by_email()),
            1,
            "the right one was given back"
        );
    }
}
