#ifndef CLARISSA_CLIBCURL_SHIM_H
#define CLARISSA_CLIBCURL_SHIM_H

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
 * call: these typed wrappers are the only way options are set. The gcc type-check macros are
 * off because the wrappers already fix each argument's type. */
#define CURL_DISABLE_TYPECHECK 1
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>

typedef size_t (*clarissa_curl_data_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode clarissa_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode clarissa_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

/* Strings are copied by libcurl (CURLOPT_COPYPOSTFIELDS copies too), except the error buffer. */
static inline CURLcode clarissa_curl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode clarissa_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode clarissa_curl_set_callback(
    CURL *handle, CURLoption option, clarissa_curl_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode clarissa_curl_set_opensocket(
    CURL *handle, curl_opensocket_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode clarissa_curl_set_prereq(CURL *handle, curl_prereq_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

/* The address an opensocket callback is asked to connect to, as text ("10.0.0.1", "::1") in
 * `text` (at least INET6_ADDRSTRLEN bytes); 0 when it is neither IPv4 nor IPv6. The
 * sockaddr that libcurl hands over is as long as its family needs, past `struct sockaddr`. */
static inline int clarissa_curl_sockaddr_text(
    const struct curl_sockaddr *address, char *text, socklen_t size) {
  const void *bytes = NULL;
  if (address->family == AF_INET) {
    bytes = &((const struct sockaddr_in *)&address->addr)->sin_addr;
  } else if (address->family == AF_INET6) {
    bytes = &((const struct sockaddr_in6 *)&address->addr)->sin6_addr;
  }
  return bytes != NULL && inet_ntop(address->family, bytes, text, size) != NULL;
}

static inline long clarissa_curl_response_code(CURL *handle) {
  long code = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

static inline const char *clarissa_curl_effective_url(CURL *handle) {
  char *url = NULL;
  curl_easy_getinfo(handle, CURLINFO_EFFECTIVE_URL, &url);
  return url;
}

/* The errno of the last failed connect, 0 when there is none. */
static inline long clarissa_curl_os_errno(CURL *handle) {
  long number = 0;
  curl_easy_getinfo(handle, CURLINFO_OS_ERRNO, &number);
  return number;
}

static inline void *clarissa_curl_private(CURL *handle) {
  char *pointer = NULL;
  curl_easy_getinfo(handle, CURLINFO_PRIVATE, &pointer);
  return pointer;
}

static inline CURLMcode clarissa_curlm_set_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/* CURLMsg keeps the transfer's result in a union. */
static inline CURLcode clarissa_curl_message_result(const CURLMsg *message) {
  return message->data.result;
}

#endif
