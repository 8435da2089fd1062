// Counts one thread's libsodium calls for the bench's exact floor (Harness/AccountHandoffBench):
// a program that links this defines the primitives the protocol uses (random bytes, X25519,
// SHA-256, HMAC-SHA256, ChaCha20-Poly1305 IETF), so its own calls to them, the library's and
// the floor's alike, come here first; each counts, then calls libsodium's own definition
// (found with dlsym(RTLD_NEXT)). Nothing in the library knows: what is counted is what
// libsodium is asked to do. Not a product: only the developer tool, the profiling probe and
// the tests link it. Elsewhere than glibc nothing is defined and the counter is unavailable.
#define _GNU_SOURCE  // RTLD_NEXT
#include "CSodiumCounter.h"

#if defined(__GLIBC__)
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

// libsodium's state types, opaque here: only pointers to them pass through.
typedef struct crypto_hash_sha256_state crypto_hash_sha256_state;
typedef struct crypto_auth_hmacsha256_state crypto_auth_hmacsha256_state;

// Each thread counts its own calls, so that measurements on several threads at once do not mix.
static __thread bool counting;
static __thread handoff_sodium_counts counts;
static __thread int depth;                 // calls of this thread in progress (nested: libsodium's own)

// Whether this call is the calling thread's outermost one while it counts; every wrapper
// calls `leave()` after the real function, whatever `enter()` returned.
static inline bool enter(void) {
    depth += 1;
    return depth == 1 && counting;
}

static inline void leave(void) { depth -= 1; }

// libsodium's definition of `name`, looked up once.
#define REAL(type, name)                                                          \
    static type real_##name;                                                      \
    if (real_##name == NULL) {                                                    \
        real_##name = (type)dlsym(RTLD_NEXT, #name);                              \
        if (real_##name == NULL) abort();                                         \
    }

typedef void (*random_fn)(void *, size_t);
void randombytes_buf(void *const buffer, const size_t size) {
    REAL(random_fn, randombytes_buf)
    if (enter()) { counts.random_calls += 1; counts.random_bytes += size; }
    real_randombytes_buf(buffer, size);
    leave();
}

typedef int (*scalarmult_base_fn)(unsigned char *, const unsigned char *);
int crypto_scalarmult_base(unsigned char *q, const unsigned char *n) {
    REAL(scalarmult_base_fn, crypto_scalarmult_base)
    if (enter()) counts.scalarmult_base += 1;
    int result = real_crypto_scalarmult_base(q, n);
    leave();
    return result;
}

typedef int (*scalarmult_fn)(unsigned char *, const unsigned char *, const unsigned char *);
int crypto_scalarmult(unsigned char *q, const unsigned char *n, const unsigned char *p) {
    REAL(scalarmult_fn, crypto_scalarmult)
    if (enter()) counts.scalarmult += 1;
    int result = real_crypto_scalarmult(q, n, p);
    leave();
    return result;
}

typedef int (*sha256_init_fn)(crypto_hash_sha256_state *);
int crypto_hash_sha256_init(crypto_hash_sha256_state *state) {
    REAL(sha256_init_fn, crypto_hash_sha256_init)
    enter();
    int result = real_crypto_hash_sha256_init(state);
    leave();
    return result;
}

typedef int (*sha256_update_fn)(crypto_hash_sha256_state *, const unsigned char *, unsigned long long);
int crypto_hash_sha256_update(crypto_hash_sha256_state *state, const unsigned char *in, unsigned long long length) {
    REAL(sha256_update_fn, crypto_hash_sha256_update)
    if (enter()) counts.sha256_bytes += length;
    int result = real_crypto_hash_sha256_update(state, in, length);
    leave();
    return result;
}

typedef int (*sha256_final_fn)(crypto_hash_sha256_state *, unsigned char *);
int crypto_hash_sha256_final(crypto_hash_sha256_state *state, unsigned char *out) {
    REAL(sha256_final_fn, crypto_hash_sha256_final)
    if (enter()) counts.sha256_hashes += 1;
    int result = real_crypto_hash_sha256_final(state, out);
    leave();
    return result;
}

typedef int (*hmac_init_fn)(crypto_auth_hmacsha256_state *, const unsigned char *, size_t);
int crypto_auth_hmacsha256_init(crypto_auth_hmacsha256_state *state, const unsigned char *key, size_t key_length) {
    REAL(hmac_init_fn, crypto_auth_hmacsha256_init)
    if (enter()) counts.hmac_key_bytes += key_length;
    int result = real_crypto_auth_hmacsha256_init(state, key, key_length);
    leave();
    return result;
}

typedef int (*hmac_update_fn)(crypto_auth_hmacsha256_state *, const unsigned char *, unsigned long long);
int crypto_auth_hmacsha256_update(crypto_auth_hmacsha256_state *state, const unsigned char *in, unsigned long long length) {
    REAL(hmac_update_fn, crypto_auth_hmacsha256_update)
    if (enter()) counts.hmac_message_bytes += length;
    int result = real_crypto_auth_hmacsha256_update(state, in, length);
    leave();
    return result;
}

typedef int (*hmac_final_fn)(crypto_auth_hmacsha256_state *, unsigned char *);
int crypto_auth_hmacsha256_final(crypto_auth_hmacsha256_state *state, unsigned char *out) {
    REAL(hmac_final_fn, crypto_auth_hmacsha256_final)
    if (enter()) counts.hmac_tags += 1;
    int result = real_crypto_auth_hmacsha256_final(state, out);
    leave();
    return result;
}

typedef int (*aead_encrypt_fn)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                               const unsigned char *, unsigned long long, const unsigned char *, const unsigned char *,
                               const unsigned char *);
int crypto_aead_chacha20poly1305_ietf_encrypt(unsigned char *c, unsigned long long *c_length, const unsigned char *m,
                                              unsigned long long m_length, const unsigned char *ad, unsigned long long ad_length,
                                              const unsigned char *nsec, const unsigned char *npub, const unsigned char *k) {
    REAL(aead_encrypt_fn, crypto_aead_chacha20poly1305_ietf_encrypt)
    if (enter()) { counts.aead_seals += 1; counts.aead_sealed_bytes += m_length; counts.aead_seal_ad_bytes += ad_length; }
    int result = real_crypto_aead_chacha20poly1305_ietf_encrypt(c, c_length, m, m_length, ad, ad_length, nsec, npub, k);
    leave();
    return result;
}

typedef int (*aead_decrypt_fn)(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *,
                               unsigned long long, const unsigned char *, unsigned long long, const unsigned char *,
                               const unsigned char *);
int crypto_aead_chacha20poly1305_ietf_decrypt(unsigned char *m, unsigned long long *m_length, unsigned char *nsec,
                                              const unsigned char *c, unsigned long long c_length, const unsigned char *ad,
                                              unsigned long long ad_length, const unsigned char *npub, const unsigned char *k) {
    REAL(aead_decrypt_fn, crypto_aead_chacha20poly1305_ietf_decrypt)
    if (enter()) { counts.aead_opens += 1; counts.aead_opened_bytes += c_length; counts.aead_open_ad_bytes += ad_length; }
    int result = real_crypto_aead_chacha20poly1305_ietf_decrypt(m, m_length, nsec, c, c_length, ad, ad_length, npub, k);
    leave();
    return result;
}


int handoff_sodium_counter_start(void) {
    if (counting) return 0;
    counts = (handoff_sodium_counts){0};
    counting = true;
    return 1;
}

handoff_sodium_counts handoff_sodium_counter_stop(void) {
    counting = false;
    return counts;
}

#else

int handoff_sodium_counter_start(void) { return 0; }
handoff_sodium_counts handoff_sodium_counter_stop(void) { return (handoff_sodium_counts){0}; }

#endif
