/* SPDX-License-Identifier: MIT */
/* tn_strerror(): the text of each TN_E* code of tn_error.h. */
#include <stdarg.h>
#include <stdio.h>

#include "tn_error.h"

const char *tn_strerror(int rc)
{
    switch (rc) {
    case TN_OK:        return "success";
    case TN_EINVAL:    return "invalid argument";
    case TN_ENOMEM:    return "out of memory";
    case TN_EIO:       return "input/output error";
    case TN_EPARSE:    return "malformed input";
    case TN_EVERIFY:   return "verification failed";
    case TN_ENODEV:    return "no device found";
    case TN_EBUSY:     return "more than one device matches";
    case TN_EACCES:    return "permission denied";
    case TN_ETIMEDOUT: return "device timed out";
    case TN_EPROTO:    return "protocol error";
    case TN_ECAPACITY: return "exceeds device capacity";
    case TN_ENOTSUP:   return "not supported";
    case TN_EINTR:     return "interrupted";
    default:           return "unknown error";
    }
}

int tn_errf(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}
