/// The fuzz-only shortcuts compiled into this build of the library. `Scripts/fuzz.sh` defines
/// them for the sanitizer build of `Fuzz/`; the root package's manifest defines none, so every
/// build an app links reports an empty list (`FuzzBuildShortcutsTests` asserts both).
///
/// - `HANDOFF_FUZZ_ALLOCATOR`: secrets on the ordinary heap (still wiped) instead of the guarded pool.
/// - `HANDOFF_FUZZ_X25519_CACHE`: X25519 results memoised.
/// - `HANDOFF_FUZZ_KEY_CACHE`: session-key derivations memoised (the keys kept on the ordinary heap).
package enum FuzzBuildShortcuts {
    /// The names of the shortcuts this build was compiled with.
    package static var compiledIn: [String] {
        var names: [String] = []
        #if HANDOFF_FUZZ_ALLOCATOR
        names.append("HANDOFF_FUZZ_ALLOCATOR")
        #endif
        #if HANDOFF_FUZZ_X25519_CACHE
        names.append("HANDOFF_FUZZ_X25519_CACHE")
        #endif
        #if HANDOFF_FUZZ_KEY_CACHE
        names.append("HANDOFF_FUZZ_KEY_CACHE")
        #endif
        return names
    }
}
