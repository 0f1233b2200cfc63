//! What every instance of either module sets up before its first call: the panic hook and a
//! source of random values.

use wasm_bindgen::prelude::*;

/// A panic inside WebAssembly traps and leaves the instance unusable. The hook runs first and
/// throws the panic's message as a JS `Error`, so the wrapper (pkg/src/state.js) can report what
/// happened and re-create the instance instead of failing every later call with "unreachable".
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| wasm_bindgen::throw_str(&format!("{PANIC_PREFIX}{info}"))));
}

/// How the panic hook's message starts: how pkg/src/state.js tells a panic from other errors.
pub(super) const PANIC_PREFIX: &str = "output-contract panicked: ";

// getrandom is linked through ahash (its maps are seeded through getrandom), and a wasm32 build
// needs a backend.
// Cloudflare workerd forbids random values at global scope, where a worker compiles its contracts
// at module load, and getrandom's own JS backend then fails and the seeding panics (a trap).
// scripts/build.sh selects this backend instead: `crypto.getRandomValues` when allowed, else bytes from a fixed
// mixing sequence. Only hash-flooding resistance depends on these bytes, and only for seeds drawn
// at global scope in workerd (ahash draws its process seed once, on first use).
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["globalThis", "crypto"], js_name = getRandomValues)]
    fn crypto_get_random_values(buf: &mut [u8]) -> Result<(), JsValue>;
}

/// getrandom's custom-backend entry point (`--cfg getrandom_backend="custom"`).
///
/// # Safety
/// getrandom calls it with a valid, writable `dest` of `len` bytes.
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(dest: *mut u8, len: usize) -> Result<(), getrandom::Error> {
    // SAFETY: getrandom passes a valid, exclusive buffer of `len` bytes.
    let buf = unsafe { std::slice::from_raw_parts_mut(dest, len) };
    // getRandomValues fills at most 65,536 bytes per call.
    for chunk in buf.chunks_mut(65_536) {
        if crypto_get_random_values(chunk).is_err() {
            fallback_bytes(chunk);
        }
    }
    Ok(())
}

fn fallback_bytes(out: &mut [u8]) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);
    for chunk in out.chunks_mut(8) {
        // splitmix64: distinct, well-mixed values on every call.
        let mut z = STATE.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        for (o, b) in chunk.iter_mut().zip(z.to_le_bytes()) {
            *o = b;
        }
    }
}
