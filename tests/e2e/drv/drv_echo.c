/* tests/e2e/drv/drv_echo.c — a dynamically loaded port driver for the erl_ddll programs:
 * echoes what it is sent, answers port_control/3 operations, arms its timer, sends terms.
 * Built against beamlet's include/erl_driver.h (CMake) and against OTP's own header for erl
 * (tests/e2e/drv/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "erl_driver.h"

typedef struct {
    ErlDrvPort port;
    int binary_control;
    int stops;
    int busy;
} Echo;

static int inits;

static int echo_init(void) {
    ++inits;
    return 0;
}

static ErlDrvData echo_start(ErlDrvPort port, char *command) {
    if (strstr(command, "fail"))
        return ERL_DRV_ERROR_GENERAL;
    if (strstr(command, "badarg"))
        return ERL_DRV_ERROR_BADARG;
    Echo *e = driver_alloc(sizeof *e);
    memset(e, 0, sizeof *e);
    e->port = port;
    return (ErlDrvData)e;
}

static void echo_stop(ErlDrvData data) {
    driver_free(data);
}

/* Each command comes back as {Port, {data, Bytes}}; "term" sends a term instead, "die" ends
 * the port with an atom, "eof" as end of file, "bad" tries a malformed term; a term in the
 * external format (what a tracer port is sent) comes back as it is. */
static void echo_output(ErlDrvData data, char *buf, ErlDrvSizeT len) {
    Echo *e = (Echo *)data;
    if (len == 4 && memcmp(buf, "term", 4) == 0) {
        /* {Port, term, -42, "abc", [<<"xyz">>, Caller, "ab", 7, 1.5, -2^62, #{k => 1}]} */
        static double one_and_a_half = 1.5;
        static ErlDrvSInt64 big = -((ErlDrvSInt64)1 << 62);
        ErlDrvTermData spec[] = {
            ERL_DRV_PORT, driver_mk_port(e->port),
            ERL_DRV_ATOM, driver_mk_atom("term"),
            ERL_DRV_INT, (ErlDrvTermData)-42,
            ERL_DRV_STRING, (ErlDrvTermData)"abc", 3,
            ERL_DRV_BUF2BINARY, (ErlDrvTermData)"xyz", 3,
            ERL_DRV_PID, driver_caller(e->port),
            ERL_DRV_NIL,
            ERL_DRV_STRING_CONS, (ErlDrvTermData)"ab", 2,
            ERL_DRV_UINT, 7,
            ERL_DRV_FLOAT, (ErlDrvTermData)&one_and_a_half,
            ERL_DRV_INT64, (ErlDrvTermData)&big,
            ERL_DRV_ATOM, driver_mk_atom("k"), ERL_DRV_INT, 1, ERL_DRV_MAP, 1,
            ERL_DRV_NIL,
            ERL_DRV_LIST, 8,
            ERL_DRV_TUPLE, 5,
        };
        erl_drv_output_term(driver_mk_port(e->port), spec, sizeof spec / sizeof spec[0]);
        return;
    }
    if (len == 3 && memcmp(buf, "bad", 3) == 0) {
        /* A malformed specification: nothing is sent. */
        ErlDrvTermData spec[] = {ERL_DRV_TUPLE, 2};
        if (erl_drv_output_term(driver_mk_port(e->port), spec, 2) >= 0)
            driver_output(e->port, "sent", 4);
        else
            driver_output(e->port, "refused", 7);
        return;
    }
    if (len == 3 && memcmp(buf, "die", 3) == 0) {
        driver_failure_atom(e->port, "died");
        return;
    }
    if (len == 3 && memcmp(buf, "eof", 3) == 0) {
        driver_failure_eof(e->port);
        return;
    }
    if (len > 0 && (unsigned char)buf[0] == 131) {
        /* A term in the external format (a trace message, for a tracer port): as it came. */
        driver_output(e->port, buf, len);
        return;
    }
    driver_output2(e->port, "echo:", 5, buf, len);
}

/* 'T': a thread of the driver's own sends {from_thread, Port, Data} to the caller
 * (erl_drv_send_term outside a callback), and is joined. */
struct thread_job {
    ErlDrvTermData port, to;
    char data[64];
    ErlDrvSizeT len;
};

static void *send_from_thread(void *arg) {
    struct thread_job *job = (struct thread_job *)arg;
    ErlDrvTermData spec[] = {ERL_DRV_ATOM, driver_mk_atom("from_thread"), ERL_DRV_PORT, job->port,
                             ERL_DRV_BUF2BINARY, (ErlDrvTermData)job->data, (ErlDrvTermData)job->len,
                             ERL_DRV_TUPLE, 3};
    erl_drv_send_term(job->port, job->to, spec, sizeof spec / sizeof spec[0]);
    return job;
}

/* 'b': control answers binaries from now on; 't': the timer in N ms (the data: digits);
 * 'c': cancel it; 's': what it was given, reversed; 'B' / 'F': the port busy / not busy;
 * 'i': how many times init() ran. */
static ErlDrvSSizeT echo_control(ErlDrvData data, unsigned int command, char *buf, ErlDrvSizeT len,
                                 char **rbuf, ErlDrvSizeT rlen) {
    Echo *e = (Echo *)data;
    char digits[32];
    ErlDrvSizeT i;
    switch (command) {
    case 'b':
        set_port_control_flags(e->port, PORT_CONTROL_FLAG_BINARY);
        e->binary_control = 1;
        memcpy(*rbuf, "ok", 2);
        return 2;
    case 't':
        if (len >= sizeof digits) return -1;
        memcpy(digits, buf, len);
        digits[len] = 0;
        driver_set_timer(e->port, (unsigned long)atol(digits));
        memcpy(*rbuf, "armed", 5);
        return 5;
    case 'c':
        driver_cancel_timer(e->port);
        memcpy(*rbuf, "cancelled", 9);
        return 9;
    case 's':
        if (len > rlen) {
            if (e->binary_control) {
                ErlDrvBinary *bin = driver_alloc_binary(len);
                *rbuf = (char *)bin;
                for (i = 0; i < len; ++i) bin->orig_bytes[i] = buf[len - 1 - i];
            } else {
                *rbuf = driver_alloc(len);
                for (i = 0; i < len; ++i) (*rbuf)[i] = buf[len - 1 - i];
            }
            return (ErlDrvSSizeT)len;
        }
        for (i = 0; i < len; ++i) (*rbuf)[i] = buf[len - 1 - i];
        return (ErlDrvSSizeT)len;
    case 'B':
    case 'F':
        set_busy_port(e->port, command == 'B');
        return 0;
    case 'i':
        return snprintf(*rbuf, rlen, "inits=%d", inits);
    case 'T': {
        struct thread_job *job = driver_alloc(sizeof *job);
        ErlDrvTid tid;
        void *result = NULL;
        job->port = driver_mk_port(e->port);
        job->to = driver_caller(e->port);
        job->len = len < sizeof job->data ? len : sizeof job->data;
        memcpy(job->data, buf, job->len);
        if (erl_drv_thread_create("drv_echo_sender", &tid, send_from_thread, job, NULL) != 0) {
            driver_free(job);
            return -1;
        }
        erl_drv_thread_join(tid, &result);
        driver_free(result);
        memcpy(*rbuf, "joined", 6);
        return 6;
    }
    case 'Q': {
        /* The data queued twice, the queue sent as one vector after "queued:", then emptied. */
        ErlIOVec ev;
        ErlDrvSizeT size;
        driver_enq(e->port, buf, len);
        driver_enq(e->port, buf, len);
        size = driver_peekqv(e->port, &ev);
        driver_outputv(e->port, "queued:", 7, &ev, 0);
        driver_deq(e->port, size);
        return snprintf(*rbuf, rlen, "vsize=%d size=%lu", ev.vsize, (unsigned long)size);
    }
    }
    return -1;
}

static void echo_timeout(ErlDrvData data) {
    Echo *e = (Echo *)data;
    driver_output(e->port, "timeout", 7);
}

static ErlDrvEntry echo_entry = {
    echo_init,
    echo_start,
    echo_stop,
    echo_output,
    NULL, /* ready_input */
    NULL, /* ready_output */
    "drv_echo",
    NULL, /* finish */
    NULL, /* handle */
    echo_control,
    echo_timeout,
    NULL, /* outputv */
    NULL, /* ready_async */
    NULL, /* flush */
    NULL, /* call */
    NULL, /* unused_event_callback */
    ERL_DRV_EXTENDED_MARKER,
    ERL_DRV_EXTENDED_MAJOR_VERSION,
    ERL_DRV_EXTENDED_MINOR_VERSION,
    0,
    NULL, /* handle2 */
    NULL, /* process_exit */
    NULL  /* stop_select */
};

DRIVER_INIT(drv_echo) {
    return &echo_entry;
}
