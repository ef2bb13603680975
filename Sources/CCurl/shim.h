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
static inline CURLcode tasks_curl_redirect_url(CURL *handle, char **url) {
    return curl_easy_getinfo(handle, CURLINFO_REDIRECT_URL, url);
}
static inline CURLMcode tasks_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#include <sys/prctl.h>
#include <sys/resource.h>
// A helper holding a password makes no core dump (the password would be in it) and cannot be
// read through ptrace or /proc/PID/mem by another process of the same user.
static inline int tasks_refuse_core_dumps(void) {
    struct rlimit none = {0, 0};
    int limited = setrlimit(RLIMIT_CORE, &none);
    int undumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limited == 0 && undumpable == 0 ? 0 : -1;
}
