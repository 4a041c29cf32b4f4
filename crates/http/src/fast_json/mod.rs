//! The longest answers wort gives, as JSON written by hand: a session's fermentation readings,
//! a page of recipes, and one recipe with all its children.
//!
//! A hydrometer posting every 5 minutes makes 288 readings a day, and a reading page holds up to
//! 1,000; a recipe page holds up to 100; a recipe read carries every ingredient and step, and is
//! the request a brewer's editor makes most. Through serde's generic path every key and string is
//! scanned byte by byte for characters to escape, and every key, colon and comma is its own
//! call: writing the JSON was most of a readings page's instructions and a large share of a
//! recipe page's and of a recipe read's. Most of either cannot need escaping (keys, UUIDs,
//! instants, enum values are fixed ASCII), so [`Object`] writes those bytes straight out and
//! leaves to serde_json only what it must judge: numbers (its float formatting, `null` for a
//! non-finite value) and free text (its escaping). Counted in docs/benchmarks-log.md, "Long
//! answers written by hand, column lists kept" and "The recipe read's JSON by hand, and CPU per
//! request".
//!
//! The bytes are exactly those of the types' derived `Serialize`, which stays the reference (the
//! single-item answers, webhooks and the OpenAPI schema use it): each writer's tests compare the
//! two over generated values, and each writer destructures its type, so a field added to the
//! struct and not to the writer does not compile.

mod readings;
mod recipe_detail;
mod recipes;

pub use readings::readings;
pub use recipe_detail::recipe_detail;
pub use recipes::recipes;

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;
use wort_domain::timestamp;

/// `[item, …]`, each item an object written by `write`.
fn array<T>(
    items: &[T],
    bytes_per_item: usize,
    write: impl Fn(&T, &mut Object<'_>) -> serde_json::Result<()>,
) -> serde_json::Result<Vec<u8>> {
    // One allocation for a typical page.
    let mut out = Vec::with_capacity(2 + items.len() * bytes_per_item);
    write_array(&mut out, items, write)?;
    Ok(out)
}

/// Appends `[item, …]` to `out`, each item an object written by `write`.
fn write_array<T>(
    out: &mut Vec<u8>,
    items: &[T],
    write: impl Fn(&T, &mut Object<'_>) -> serde_json::Result<()>,
) -> serde_json::Result<()> {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let mut object = Object::begin(out);
        write(item, &mut object)?;
        object.end();
    }
    out.push(b']');
    Ok(())
}

/// A member's key as it is written, `"name":`, put together at compile time by [`key!`] so that
/// writing it is one copy. Keys are the writers' own literals: plain ASCII with nothing to escape.
#[derive(Clone, Copy)]
struct Key(&'static str);

/// `key!("name")`: the [`Key`] `"name":`.
macro_rules! key {
    ($name:literal) => {
        $crate::fast_json::Key(concat!("\"", $name, "\":"))
    };
}
use key;

/// One JSON object being written, its members in the order they are added.
struct Object<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

// Inlined: each is a few copies, called ten to sixteen times per item.
impl<'a> Object<'a> {
    fn begin(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object { out, empty: true }
    }

    fn end(self) {
        self.out.push(b'}');
    }

    /// The member's key, after a comma unless it is the first.
    #[inline(always)]
    fn key(&mut self, key: Key) {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out.extend_from_slice(key.0.as_bytes());
    }

    /// A UUID, lower-case and hyphenated, as `uuid`'s own `Serialize` writes it.
    #[inline(always)]
    fn uuid(&mut self, key: Key, id: Uuid) {
        self.key(key);
        let mut buf = Uuid::encode_buffer();
        self.out.push(b'"');
        self.out
            .extend_from_slice(id.hyphenated().encode_lower(&mut buf).as_bytes());
        self.out.push(b'"');
    }

    #[inline(always)]
    fn optional_uuid(&mut self, key: Key, id: Option<Uuid>) {
        match id {
            Some(id) => self.uuid(key, id),
            None => self.null(key),
        }
    }

    /// An instant in wort's one JSON form (`wort_domain::timestamp`).
    #[inline(always)]
    fn instant(&mut self, key: Key, at: OffsetDateTime) {
        self.key(key);
        self.out.push(b'"');
        timestamp::write(at, self.out);
        self.out.push(b'"');
    }

    /// A fixed word, such as an enum's `as_str()`: ASCII with nothing to escape.
    #[inline(always)]
    fn word(&mut self, key: Key, word: &'static str) {
        debug_assert!(nothing_to_escape(word));
        self.key(key);
        self.out.push(b'"');
        self.out.extend_from_slice(word.as_bytes());
        self.out.push(b'"');
    }

    #[inline(always)]
    fn optional_word(&mut self, key: Key, word: Option<&'static str>) {
        match word {
            Some(word) => self.word(key, word),
            None => self.null(key),
        }
    }

    /// A list of objects, each written by `write`.
    fn objects<T>(
        &mut self,
        key: Key,
        items: &[T],
        write: impl Fn(&T, &mut Object<'_>) -> serde_json::Result<()>,
    ) -> serde_json::Result<()> {
        self.key(key);
        write_array(self.out, items, write)
    }

    #[inline(always)]
    fn null(&mut self, key: Key) {
        self.key(key);
        self.out.extend_from_slice(b"null");
    }

    /// A value serde_json must judge: a number or `null`, or a string to escape.
    #[inline(always)]
    fn serde<T: Serialize + ?Sized>(&mut self, key: Key, value: &T) -> serde_json::Result<()> {
        self.key(key);
        serde_json::to_writer(&mut *self.out, value)
    }
}

fn nothing_to_escape(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\')
}

/// What the writers' tests share: deterministic generated values.
#[cfg(test)]
mod generated {
    use time::OffsetDateTime;
    use time::macros::datetime;
    use uuid::Uuid;
    use wort_domain::recipe::{Recipe, RecipeType};

    /// A small deterministic generator: the same values on every run.
    pub struct Lcg(pub u64);

    impl Lcg {
        pub fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }

        pub fn pick<T: Copy>(&mut self, from: &[T]) -> T {
            from[usize::try_from(self.next()).unwrap() % from.len()]
        }

        pub fn text(&mut self) -> String {
            self.pick(TEXTS).to_owned()
        }
    }

    pub const NUMBERS: &[f64] = &[
        1.0,
        1.0505,
        1.012_345_678_9,
        0.0,
        -0.0,
        -3.5,
        20.25,
        1e-7,
        1e21,
        123_456_789.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];

    pub const TEXTS: &[&str] = &[
        "",
        "dry hopped",
        "said \"krausen\" \\ fell",
        "line one\nline two\ttab\r\u{8}\u{c}",
        "control \u{1} \u{1f} and delete \u{7f}",
        "Bière de garde, 12 °P, 🍺",
        "</script><!-- -->",
    ];

    pub const INSTANTS: &[OffsetDateTime] = &[
        datetime!(2026-11-26 09:30:00.123456 UTC),
        datetime!(2026-11-26 10:30:00 +01:00),
        datetime!(2024-02-29 23:59:59.999999 -07:00),
        datetime!(0001-01-01 00:00:00 UTC),
        datetime!(9999-12-31 23:59:59.999 UTC),
        // Before year 0: `timestamp`'s slow path.
        datetime!(-0001-06-15 12:00:00 UTC),
        datetime!(-9999-01-01 00:00:00 UTC),
    ];

    /// `Some` of a pick, or `None` one time in three.
    pub fn sometimes<T>(random: &mut Lcg, value: impl FnOnce(&mut Lcg) -> T) -> Option<T> {
        (!random.next().is_multiple_of(3)).then(|| value(random))
    }

    pub fn uuid(random: &mut Lcg) -> Uuid {
        Uuid::from_u64_pair(random.next() << 20, random.next())
    }

    pub fn recipe(random: &mut Lcg) -> Recipe {
        Recipe {
            id: uuid(random),
            user_id: uuid(random).to_string(),
            name: random.text(),
            style: random.text(),
            kind: random.pick(RecipeType::ALL),
            batch_size_liters: random.pick(NUMBERS),
            boil_time_minutes: random.pick(NUMBERS),
            efficiency: random.pick(NUMBERS),
            notes: sometimes(random, Lcg::text),
            equipment_id: sometimes(random, uuid),
            style_id: sometimes(random, |r| r.pick(&["21A", "33B", "X\"1"]).to_owned()),
            water_profile_id: sometimes(random, uuid),
            target_water_profile_id: sometimes(random, uuid),
            parent_recipe_id: None,
            parent_version: None,
            source_url: None,
            est_color_srm: random.pick(NUMBERS),
            created_at: random.pick(INSTANTS),
            updated_at: random.pick(INSTANTS),
        }
    }
}
