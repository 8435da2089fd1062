#ifndef CSODIUMCOUNTER_H
#define CSODIUMCOUNTER_H

#include <stdint.h>

/// The libsodium calls one thread made while counting, and the bytes they processed. Only the
/// outermost call counts: the SHA-256 that libsodium's HMAC runs inside is not a SHA-256 call.
typedef struct {
    uint64_t random_calls, random_bytes;
    uint64_t scalarmult_base, scalarmult;
    uint64_t sha256_hashes, sha256_bytes;
    uint64_t hmac_tags, hmac_key_bytes, hmac_message_bytes;
    uint64_t aead_seals, aead_sealed_bytes, aead_seal_ad_bytes;
    uint64_t aead_opens, aead_opened_bytes, aead_open_ad_bytes;
} handoff_sodium_counts;

/// Starts counting the libsodium calls of the calling thread (from zero); each thread counts
/// its own. 0 when the counter is not available or this thread is counting already.
int handoff_sodium_counter_start(void);

/// Stops counting on the calling thread and returns what it counted.
handoff_sodium_counts handoff_sodium_counter_stop(void);

#endif
