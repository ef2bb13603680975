#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each kind
// of argument gets a typed wrapper.
static inline CURLcode tasks_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tasks_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tasks_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*tasks_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode tasks_curl_set_callback(CURL *handle, CURLoption option, tasks_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tasks_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
