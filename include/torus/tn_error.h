/* SPDX-License-Identifier: MIT */
/* Error codes shared by every part of libtorus: actions return 0 or one of
 * these (negative); tn_strerror() gives the text. */
#ifndef TN_ERROR_H
#define TN_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum tn_err {
    TN_OK = 0,
    TN_EINVAL = -1,    /* bad argument or option */
    TN_ENOMEM = -2,    /* out of memory */
    TN_EIO = -3,       /* file or device input/output error */
    TN_EPARSE = -4,    /* malformed input file */
    TN_EVERIFY = -5,   /* schedule, data or cycle verification failed */
    TN_ENODEV = -6,    /* no device (or simulator model) found */
    TN_EBUSY = -7,     /* more than one device matches: refusing to guess */
    TN_EACCES = -8,    /* permission denied on a device */
    TN_ETIMEDOUT = -9, /* device stopped answering */
    TN_EPROTO = -10,   /* protocol error: bad frame, NAK, wrong sequence */
    TN_ECAPACITY = -11,/* the device cannot hold or run this schedule */
    TN_ENOTSUP = -12,  /* not supported for this geometry or backend */
    TN_EINTR = -13,    /* interrupted by the user (tn_proto_interrupt) */
};

/* Text for a TN_E* code (never NULL). */
const char *tn_strerror(int rc);

/* Format a message into err (if err and errlen), return rc: the library's
 * "fail with a reason" idiom. */
#include <stddef.h>
int tn_errf(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#endif
