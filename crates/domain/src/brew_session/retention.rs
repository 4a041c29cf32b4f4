//! Readings retention (`WORT_READINGS_RETENTION_DAYS`, off unless set): readings older than N days
//! are thinned, so that an installation whose hydrometers post every minute or few does not grow
//! without bound, while every brew keeps its fermentation curve.
//!
//! The rule, for the readings of one brew session logged more than N days ago:
//!
//! * A reading a person entered (no device) is kept. So is a reading with a note (not empty):
//!   a person annotated it, or the device sent a comment.
//! * Each device's readings in the session (its *series*) keep the first reading of every clock
//!   hour (UTC), first in the session's order (`logged_at`, then id); the others of that hour
//!   go. Two devices in one fermenter (a hydrometer and a temperature probe) each keep theirs.
//! * The session's last reading is kept: a finished batch keeps its final gravity as measured.
//!   Its first is kept anyway (the first of its hour).
//!
//! Readings of the last N days are never touched. A device deleted since leaves its readings
//! without a device, so they count as entered by hand and are kept (the safe side). The rule
//! only ever removes a reading that another kept reading of its hour stands for, so applying it
//! twice removes nothing more: whatever it keeps is kept again.
//!
//! [`thinned`] is the rule as a function over one session's readings; the database adapter
//! applies the same rule in SQL, in batches ([`super::ports::ReadingThinning`]), and its tests
//! hold the two to the same answers. [`ReadingRetention`] runs a pass.
//!
//! A pass looks at every old reading the rule may remove, so it grows with the history kept
//! (on 2,000,000 readings thinned, about 150,000: 1.3 s). Hourly, only the readings that
//! have grown old since the last pass need it: a pass starts where the last finished one's
//! cutoff was, and every [`FULL_PASS_EVERY`]th pass (and the first) looks at everything again,
//! for what a partial pass cannot see: a session's last reading that a later one has replaced
//! (brewing resumed after a long pause), or an old reading whose note was taken away.

use std::sync::{Arc, Mutex, PoisonError};

use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::ports::{ReadingThinning, ThinningBatch, ThinningCursor};
use crate::DomainResult;
use crate::ports::Clock;

/// Passes from one full pass to the next (hourly passes: one full pass a day).
pub const FULL_PASS_EVERY: u32 = 24;

/// The longest retention accepted: a century. Longer is "keep everything" (leave it unset), and
/// the bound keeps `now - N days` inside the calendar.
pub const MAX_RETENTION_DAYS: u32 = 36_500;

/// How many days readings are kept in full: a whole number from 1 to [`MAX_RETENTION_DAYS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionDays(u32);

impl RetentionDays {
    pub fn new(days: u32) -> Option<RetentionDays> {
        (1..=MAX_RETENTION_DAYS)
            .contains(&days)
            .then_some(RetentionDays(days))
    }

    /// A number of days as an operator writes it (surrounding spaces allowed).
    pub fn parse(text: &str) -> Option<RetentionDays> {
        text.trim().parse::<u32>().ok().and_then(RetentionDays::new)
    }

    pub fn days(self) -> u32 {
        self.0
    }

    /// Readings logged before this instant are old.
    pub fn cutoff(self, now: OffsetDateTime) -> OffsetDateTime {
        now - Duration::days(i64::from(self.0))
    }
}

/// What the rule needs to know of a reading.
#[derive(Debug, Clone, PartialEq)]
pub struct ThinningReading {
    pub id: Uuid,
    pub logged_at: OffsetDateTime,
    /// `None`: entered by hand (or its device was deleted).
    pub device_id: Option<Uuid>,
    pub notes: Option<String>,
}

impl ThinningReading {
    /// Kept whatever its age: entered by a person, or carrying a note.
    pub fn always_kept(&self) -> bool {
        self.device_id.is_none() || self.notes.as_deref().is_some_and(|n| !n.is_empty())
    }
}

/// The clock hour (UTC) a reading falls in, as hours since 1970: the bucket of the rule.
pub fn hour_of(at: OffsetDateTime) -> i64 {
    at.unix_timestamp().div_euclid(3_600)
}

/// The ids the rule removes from one session's readings (in any order) when readings logged
/// before `older_than` are old; see the module's documentation.
pub fn thinned(session: &[ThinningReading], older_than: OffsetDateTime) -> Vec<Uuid> {
    let mut ordered: Vec<&ThinningReading> = session.iter().collect();
    ordered.sort_by_key(|r| (r.logged_at, r.id));
    let last = ordered.last().map(|r| r.id);
    // (device, hour) of each series' hour seen so far: its first reading is the one kept.
    let mut hours_seen = std::collections::HashSet::new();
    let mut removed = Vec::new();
    for reading in ordered {
        let Some(device) = reading.device_id else {
            continue;
        };
        let first_of_hour = hours_seen.insert((device, hour_of(reading.logged_at)));
        let old = reading.logged_at < older_than;
        if old && !first_of_hour && !reading.always_kept() && Some(reading.id) != last {
            removed.push(reading.id);
        }
    }
    removed
}

/// What one pass removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThinningPass {
    /// Readings deleted.
    pub removed: u64,
    /// Statements (each its own short transaction) the pass took.
    pub batches: u32,
    /// Another instance was thinning: this pass stopped and left the work to it.
    pub yielded: bool,
    /// It looked at every old reading, not only those grown old since the last pass.
    pub full: bool,
}

/// How far the passes of this process have got.
#[derive(Debug, Default)]
struct Progress {
    /// The cutoff of the last pass that finished: readings older were thinned then.
    thinned_before: Option<OffsetDateTime>,
    /// Partial passes finished since the last full one.
    partial_passes: u32,
}

/// Runs the rule over every session, batch after batch.
pub struct ReadingRetention {
    store: Arc<dyn ReadingThinning>,
    clock: Arc<dyn Clock>,
    days: RetentionDays,
    progress: Mutex<Progress>,
}

impl ReadingRetention {
    pub fn new(
        store: Arc<dyn ReadingThinning>,
        clock: Arc<dyn Clock>,
        days: RetentionDays,
    ) -> Self {
        ReadingRetention {
            store,
            clock,
            days,
            progress: Mutex::default(),
        }
    }

    pub fn days(&self) -> RetentionDays {
        self.days
    }

    /// One pass at the clock's time.
    pub async fn run(&self) -> DomainResult<ThinningPass> {
        self.run_at(self.clock.now()).await
    }

    /// One pass as of `now`: batches until every old reading (or, in a partial pass, every
    /// reading grown old since the last finished pass) has been looked at once, or until another
    /// instance is found thinning (it finishes the work; two at once would only repeat each
    /// other's reads). An error ends the pass; what its batches removed stays removed, and the
    /// next pass looks again from where the last finished one had got.
    pub async fn run_at(&self, now: OffsetDateTime) -> DomainResult<ThinningPass> {
        let older_than = self.days.cutoff(now);
        let mut after = {
            let progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
            match progress.thinned_before {
                Some(before)
                    if progress.partial_passes + 1 < FULL_PASS_EVERY && before <= older_than =>
                {
                    // The nil id is before every id: readings logged at `before` are included.
                    Some(ThinningCursor {
                        logged_at: before,
                        id: Uuid::nil(),
                    })
                }
                _ => None,
            }
        };
        let mut pass = ThinningPass {
            full: after.is_none(),
            ..ThinningPass::default()
        };
        loop {
            match self.store.thin_batch(older_than, after).await? {
                ThinningBatch::Busy => {
                    pass.yielded = true;
                    return Ok(pass);
                }
                ThinningBatch::Done { removed, next } => {
                    pass.removed += removed;
                    pass.batches += 1;
                    match next {
                        Some(next) => after = Some(next),
                        None => {
                            self.finished(&pass, older_than);
                            return Ok(pass);
                        }
                    }
                }
            }
        }
    }

    fn finished(&self, pass: &ThinningPass, older_than: OffsetDateTime) {
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        progress.thinned_before = Some(older_than);
        progress.partial_passes = if pass.full {
            0
        } else {
            progress.partial_passes + 1
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    const HYDROMETER: Uuid = Uuid::from_u128(0xd1);
    const PROBE: Uuid = Uuid::from_u128(0xd2);

    fn device(n: u128, at: OffsetDateTime, device: Uuid) -> ThinningReading {
        ThinningReading {
            id: id(n),
            logged_at: at,
            device_id: Some(device),
            notes: None,
        }
    }

    fn sorted(mut ids: Vec<Uuid>) -> Vec<Uuid> {
        ids.sort();
        ids
    }

    #[test]
    fn retention_days_are_a_positive_whole_number_up_to_a_century() {
        assert_eq!(RetentionDays::parse("30"), RetentionDays::new(30));
        assert_eq!(
            RetentionDays::parse(" 7 ").map(RetentionDays::days),
            Some(7)
        );
        assert_eq!(RetentionDays::parse("1").map(RetentionDays::days), Some(1));
        assert_eq!(
            RetentionDays::parse("36500").map(RetentionDays::days),
            Some(36_500)
        );
        for bad in ["0", "-1", "1.5", "30d", "", "36501", "99999999999"] {
            assert_eq!(RetentionDays::parse(bad), None, "{bad:?}");
        }
        let days = RetentionDays::new(30).unwrap();
        assert_eq!(
            days.cutoff(datetime!(2026-12-07 12:00 UTC)),
            datetime!(2026-11-07 12:00 UTC)
        );
    }

    #[test]
    fn old_device_readings_keep_the_first_of_each_hour_and_the_session_keeps_its_last() {
        // A hydrometer every 20 minutes from 10:00 to 12:40, all old.
        let readings: Vec<_> = (0..9)
            .map(|i| {
                device(
                    i,
                    datetime!(2026-10-01 10:00 UTC) + Duration::minutes(20 * i as i64),
                    HYDROMETER,
                )
            })
            .collect();
        let gone = thinned(&readings, datetime!(2026-11-01 00:00 UTC));
        // Kept: 10:00, 11:00, 12:00 (first of their hours) and 12:40 (the session's last).
        assert_eq!(gone, [id(1), id(2), id(4), id(5), id(7)]);
    }

    #[test]
    fn hand_readings_and_noted_readings_are_kept_and_recent_ones_untouched() {
        let cutoff = datetime!(2026-11-01 00:00 UTC);
        let mut readings = vec![
            device(1, datetime!(2026-10-01 10:00 UTC), HYDROMETER),
            device(2, datetime!(2026-10-01 10:05 UTC), HYDROMETER),
            ThinningReading {
                notes: Some("dry hopped".into()),
                ..device(3, datetime!(2026-10-01 10:10 UTC), HYDROMETER)
            },
            ThinningReading {
                device_id: None,
                ..device(4, datetime!(2026-10-01 10:15 UTC), HYDROMETER)
            },
            // An empty note says nothing: thinned like no note.
            ThinningReading {
                notes: Some(String::new()),
                ..device(5, datetime!(2026-10-01 10:20 UTC), HYDROMETER)
            },
            // Recent: every one kept, however dense.
            device(6, datetime!(2026-11-01 00:00 UTC), HYDROMETER),
            device(7, datetime!(2026-11-01 00:01 UTC), HYDROMETER),
            device(8, datetime!(2026-11-01 00:02 UTC), HYDROMETER),
        ];
        readings.reverse(); // the order given does not matter
        assert_eq!(sorted(thinned(&readings, cutoff)), [id(2), id(5)]);
    }

    #[test]
    fn each_device_keeps_its_own_hours() {
        let readings = vec![
            device(1, datetime!(2026-10-01 10:00 UTC), HYDROMETER),
            device(2, datetime!(2026-10-01 10:01 UTC), PROBE),
            device(3, datetime!(2026-10-01 10:30 UTC), HYDROMETER),
            device(4, datetime!(2026-10-01 10:31 UTC), PROBE),
            // A hand reading first in the hour stands for no device.
            ThinningReading {
                device_id: None,
                ..device(5, datetime!(2026-10-01 11:00 UTC), HYDROMETER)
            },
            device(6, datetime!(2026-10-01 11:10 UTC), HYDROMETER),
            device(7, datetime!(2026-10-01 11:20 UTC), HYDROMETER),
            device(8, datetime!(2026-10-01 11:30 UTC), PROBE),
        ];
        let gone = thinned(&readings, datetime!(2026-11-01 00:00 UTC));
        assert_eq!(sorted(gone), [id(3), id(4), id(7)]);
    }

    #[test]
    fn readings_at_the_same_instant_are_ordered_by_id() {
        let at = datetime!(2026-10-01 10:00 UTC);
        let readings = vec![
            device(9, at, HYDROMETER),
            device(3, at, HYDROMETER),
            device(5, at, HYDROMETER),
        ];
        // 3 is first of the hour, 9 the session's last.
        assert_eq!(thinned(&readings, datetime!(2026-11-01 00:00 UTC)), [id(5)]);
    }

    #[test]
    fn hours_are_clock_hours_in_utc() {
        // 10:59 and 11:00 are two hours, although a minute apart; a zone half an hour off UTC
        // does not move them.
        let readings = vec![
            device(1, datetime!(2026-10-01 10:59 UTC), HYDROMETER),
            device(2, datetime!(2026-10-01 11:00 UTC), HYDROMETER),
            device(3, datetime!(2026-10-01 16:45 +05:30), HYDROMETER), // 11:15 UTC
            device(4, datetime!(2026-10-01 12:00 UTC), HYDROMETER),
        ];
        assert_eq!(thinned(&readings, datetime!(2026-11-01 00:00 UTC)), [id(3)]);
        assert_eq!(hour_of(datetime!(1970-01-01 00:59 UTC)), 0);
        assert_eq!(hour_of(datetime!(1969-12-31 23:30 UTC)), -1);
    }

    #[test]
    fn thinning_twice_removes_nothing_more() {
        // Every 7 minutes for two days, two devices, a note now and then.
        let start = datetime!(2026-10-01 00:03 UTC);
        let readings: Vec<_> = (0..820u128)
            .map(|i| ThinningReading {
                notes: (i % 97 == 0).then(|| "note".to_owned()),
                ..device(
                    i,
                    start + Duration::minutes(7 * (i / 2) as i64),
                    if i % 2 == 0 { HYDROMETER } else { PROBE },
                )
            })
            .collect();
        let cutoff = start + Duration::days(1);
        let gone = thinned(&readings, cutoff);
        assert!(gone.len() > 300, "{}", gone.len());
        let kept: Vec<_> = readings
            .into_iter()
            .filter(|r| !gone.contains(&r.id))
            .collect();
        assert!(thinned(&kept, cutoff).is_empty());
    }

    /// A store that answers batches from a script and records what it was asked.
    struct Scripted {
        answers: Mutex<Vec<ThinningBatch>>,
        asked: Mutex<Vec<(OffsetDateTime, Option<ThinningCursor>)>>,
    }

    #[async_trait::async_trait]
    impl ReadingThinning for Scripted {
        async fn thin_batch(
            &self,
            older_than: OffsetDateTime,
            after: Option<ThinningCursor>,
        ) -> DomainResult<ThinningBatch> {
            self.asked.lock().unwrap().push((older_than, after));
            Ok(self.answers.lock().unwrap().remove(0))
        }
    }

    struct Fixed(OffsetDateTime);

    impl Clock for Fixed {
        fn now(&self) -> OffsetDateTime {
            self.0
        }
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        let waker = std::task::Waker::noop();
        let mut context = std::task::Context::from_waker(waker);
        let mut future = std::pin::pin!(future);
        loop {
            if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut context) {
                return out;
            }
        }
    }

    fn service(answers: Vec<ThinningBatch>) -> (ReadingRetention, Arc<Scripted>) {
        let store = Arc::new(Scripted {
            answers: Mutex::new(answers),
            asked: Mutex::new(Vec::new()),
        });
        let retention = ReadingRetention::new(
            store.clone(),
            Arc::new(Fixed(datetime!(2026-12-07 00:00 UTC))),
            RetentionDays::new(30).unwrap(),
        );
        (retention, store)
    }

    #[test]
    fn a_pass_goes_on_from_each_batch_until_none_is_left() {
        let first = ThinningCursor {
            logged_at: datetime!(2026-10-01 00:00 UTC),
            id: id(7),
        };
        let (retention, store) = service(vec![
            ThinningBatch::Done {
                removed: 9_000,
                next: Some(first),
            },
            ThinningBatch::Done {
                removed: 12,
                next: None,
            },
        ]);
        let pass = block_on(retention.run()).unwrap();
        assert_eq!(
            pass,
            ThinningPass {
                removed: 9_012,
                batches: 2,
                yielded: false,
                full: true,
            }
        );
        let cutoff = datetime!(2026-11-07 00:00 UTC);
        assert_eq!(
            *store.asked.lock().unwrap(),
            [(cutoff, None), (cutoff, Some(first))]
        );
    }

    #[test]
    fn a_pass_that_meets_another_instance_leaves_the_work_to_it() {
        let (retention, store) = service(vec![
            ThinningBatch::Done {
                removed: 5,
                next: Some(ThinningCursor {
                    logged_at: datetime!(2026-10-01 00:00 UTC),
                    id: id(1),
                }),
            },
            ThinningBatch::Busy,
        ]);
        let pass = block_on(retention.run()).unwrap();
        assert_eq!(
            pass,
            ThinningPass {
                removed: 5,
                batches: 1,
                yielded: true,
                full: true,
            }
        );
        assert_eq!(store.asked.lock().unwrap().len(), 2);
        // It did not finish: the next pass looks at everything again.
        store.answers.lock().unwrap().push(ThinningBatch::Done {
            removed: 0,
            next: None,
        });
        assert!(block_on(retention.run()).unwrap().full);
        assert_eq!(store.asked.lock().unwrap()[2].1, None);
    }

    #[test]
    fn hourly_passes_start_where_the_last_ended_and_every_24th_looks_at_everything() {
        let done = || ThinningBatch::Done {
            removed: 0,
            next: None,
        };
        let (retention, store) = service((0..51).map(|_| done()).collect());
        let start = datetime!(2026-12-07 00:00 UTC);
        let mut full = Vec::new();
        for hour in 0..50 {
            let pass = block_on(retention.run_at(start + Duration::hours(hour))).unwrap();
            full.push(pass.full);
        }
        let full_at: Vec<usize> = (0..50).filter(|&h| full[h]).collect();
        assert_eq!(full_at, [0, 24, 48]);
        let asked = store.asked.lock().unwrap();
        // Hour 1 looks from hour 0's cutoff on.
        assert_eq!(
            asked[1],
            (
                datetime!(2026-11-07 01:00 UTC),
                Some(ThinningCursor {
                    logged_at: datetime!(2026-11-07 00:00 UTC),
                    id: Uuid::nil()
                })
            )
        );
        assert_eq!(asked[24].1, None);
        // A clock set back does not skip anything: that pass is a full one.
        drop(asked);
        let back = block_on(retention.run_at(start)).unwrap();
        assert!(back.full);
    }
}
