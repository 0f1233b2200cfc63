//! The values both sides of the main module's boundary must agree on, defined once. The main
//! module uses them; the schema tools' module reports them (`boundaryConstants`) to
//! scripts/build.sh, which writes them into the main module's glue as literal constants, so the
//! main module carries no code to report them.

/// Past this size the input area is given back to the allocator after use, so that one very
/// long text does not keep its room for good. pkg/src/api.js (toInput) sizes its requests by it.
pub(super) const INPUT_KEPT: usize = 1 << 20;

/// A stream chunk of fewer UTF-16 units than this is written into the chunk area by
/// pkg/src/api.js.
pub(super) const SHORT_CHUNK: usize = 64;

/// Marks the marks area holds (see `marks_area` in src/bindings/wasm.rs); a push that made more
/// sets `MARKS_MORE` in their count.
pub(super) const MARKS_ROOM: usize = 256;
pub(super) const MARKS_MORE: u32 = 1 << 31;
// A mark's kind in the area (crate::agent::stream::Mark).
pub(super) const MARK_OBJECT: u32 = 0;
pub(super) const MARK_ARRAY: u32 = 1;
pub(super) const MARK_CLOSE: u32 = 2;
pub(super) const MARK_CUT: u32 = 3;

// The stream status that every push returns: one f64 (exact up to 2^53), so that a chunk costs
// one call and no serialization. Flags, the attempt and the early violations' revision below
// 2^26, the bytes times 2^26 above; the attempt or the bytes at their maximum mean "read the
// getter" (pkg/src/api.js).
pub(super) const STATUS_COMPLETE: u64 = 1;
pub(super) const STATUS_ABORTED: u64 = 1 << 1;
pub(super) const STATUS_ATTEMPT_SHIFT: u32 = 2;
pub(super) const STATUS_ATTEMPT_MAX: u64 = (1 << 7) - 1;
pub(super) const STATUS_REVISION_SHIFT: u32 = 9;
pub(super) const STATUS_REVISION_MASK: u64 = (1 << 15) - 1;
/// Inside a string's plain content, how many more UTF-16 units of it (no quote, backslash or
/// control character) can come with nothing to report early and no limit reached
/// (`OutputStream::plain_room`), as the index of the largest of `PLAIN_ROOMS` it reaches (two
/// bits): pkg/src/api.js may hold such chunks and hand them to the module with the next one,
/// answering their status itself.
pub(super) const STATUS_PLAIN_SHIFT: u32 = 24;
pub(super) const PLAIN_ROOMS: [usize; 4] = [0, 24, 96, 384];
pub(super) const STATUS_BYTES_SHIFT: u32 = 26;
pub(super) const STATUS_BYTES_MAX: u64 = (1 << 27) - 1;
// The fields do not overlap, and the whole is an integer an f64 holds exactly.
const _: () = assert!(
    STATUS_COMPLETE < STATUS_ABORTED
        && STATUS_ABORTED < 1 << STATUS_ATTEMPT_SHIFT
        && STATUS_ATTEMPT_MAX << STATUS_ATTEMPT_SHIFT < 1 << STATUS_REVISION_SHIFT
        && STATUS_REVISION_MASK << STATUS_REVISION_SHIFT < 1 << STATUS_PLAIN_SHIFT
        && STATUS_PLAIN_SHIFT + 2 == STATUS_BYTES_SHIFT
        && STATUS_BYTES_SHIFT + STATUS_BYTES_MAX.count_ones() <= 53
);

/// Every value JavaScript must agree on with the main module, as a JSON object keyed by the names
/// pkg/src/ uses. scripts/build.sh calls it once and writes the values into the main module's
/// glue as constants (literals: the per-push decoding reads no table); the package never calls it.
#[cfg(feature = "tools-module")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = boundaryConstants)]
pub fn boundary_constants() -> String {
    serde_json::json!({
        "STATUS_COMPLETE": STATUS_COMPLETE,
        "STATUS_ABORTED": STATUS_ABORTED,
        "STATUS_ATTEMPT_SHIFT": STATUS_ATTEMPT_SHIFT,
        "STATUS_ATTEMPT_MAX": STATUS_ATTEMPT_MAX,
        "STATUS_REVISION_SHIFT": STATUS_REVISION_SHIFT,
        "STATUS_REVISION_MASK": STATUS_REVISION_MASK,
        "STATUS_BYTES_UNIT": 1u64 << STATUS_BYTES_SHIFT,
        "STATUS_BYTES_MAX": STATUS_BYTES_MAX,
        "STATUS_PLAIN_SHIFT": STATUS_PLAIN_SHIFT,
        "PLAIN_ROOMS": PLAIN_ROOMS,
        "STATUS_IN_FLIGHT": crate::agent::stream::IN_FLIGHT,
        "INPUT_KEPT": INPUT_KEPT,
        "SHORT_CHUNK": SHORT_CHUNK,
        "MARKS_ROOM": MARKS_ROOM,
        "MARKS_MORE": MARKS_MORE,
        "MARK_OBJECT": MARK_OBJECT,
        "MARK_ARRAY": MARK_ARRAY,
        "MARK_CLOSE": MARK_CLOSE,
        "MARK_CUT": MARK_CUT,
        "PANIC_PREFIX": super::runtime::PANIC_PREFIX,
        "VIOLATION_SEPARATOR": crate::report::violation::LINE_SEPARATOR,
        "SUBMIT_TOOL": crate::agent::tool::DEFAULT_NAME,
    })
    .to_string()
}
