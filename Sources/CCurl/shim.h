#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. These typed
// wrappers are the only way the Swift code reaches them; each passes exactly the C type the
// option documents.

static inline CURLcode accounthandoff_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode accounthandoff_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode accounthandoff_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode accounthandoff_curl_set_write(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode accounthandoff_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// The server's response lines (for IMAP, every line it sends) go to `callback`.
static inline CURLcode accounthandoff_curl_set_header(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode accounthandoff_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// Restricts the handle to IMAP and IMAPS, with the option this libcurl provides
/// (CURLOPT_PROTOCOLS_STR from 7.85.0, the older bitmask before it).
static inline CURLcode accounthandoff_curl_allow_only_imap(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "imap,imaps");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_IMAP | CURLPROTO_IMAPS));
#endif
}

#if defined(__APPLE__)
#include <malloc/malloc.h>
#else
#include <malloc.h>
#endif

/// The usable size of a malloc block, so a freed block can be wiped in full.
static inline size_t accounthandoff_allocated_size(void *pointer) {
#if defined(__APPLE__)
    return malloc_size(pointer);
#else
    return malloc_usable_size(pointer);
#endif
}
