/* tests/e2e/drv/drv_vec.c — a loaded driver that takes its commands as I/O vectors (outputv)
 * and answers port_call/3: what the port_trace programs trace.
 * Built against beamlet's include/erl_driver.h (CMake) and against OTP's own header for erl
 * (tests/e2e/drv/README.md). */
#include <stdio.h>
#include <string.h>

#include "erl_driver.h"

typedef struct {
    ErlDrvPort port;
    ErlDrvTermData saved;  /* the process 'S' saved */
} Vec;

static ErlDrvData vec_start(ErlDrvPort port, char *command) {
    Vec *v = driver_alloc(sizeof *v);
    (void)command;
    v->port = port;
    v->saved = driver_caller(port);
    return (ErlDrvData)v;
}

static void vec_stop(ErlDrvData data) {
    driver_free(data);
}

/* Every command comes back as "vsize=N sizes=A,B,..." (the vector's pieces as the driver got
 * them, the empty header slot included). */
static void vec_outputv(ErlDrvData data, ErlIOVec *ev) {
    Vec *v = (Vec *)data;
    char text[512];
    int n = snprintf(text, sizeof text, "vsize=%d size=%lu sizes=", ev->vsize, (unsigned long)ev->size);
    int i;
    for (i = 0; i < ev->vsize && n < (int)sizeof text - 24; ++i)
        n += snprintf(text + n, sizeof text - n, i ? ",%lu" : "%lu", (unsigned long)ev->iov[i].iov_len);
    driver_output(v->port, text, (ErlDrvSizeT)n);
}

/* 'S': remember the caller; 'D': send it {vec, Port, Data} (erl_drv_send_term, even to a
 * process that is gone). */
static ErlDrvSSizeT vec_control(ErlDrvData data, unsigned int command, char *buf, ErlDrvSizeT len,
                                char **rbuf, ErlDrvSizeT rlen) {
    Vec *v = (Vec *)data;
    (void)rlen;
    switch (command) {
    case 'S':
        v->saved = driver_caller(v->port);
        memcpy(*rbuf, "saved", 5);
        return 5;
    case 'D': {
        ErlDrvTermData spec[] = {
            ERL_DRV_ATOM, driver_mk_atom("vec"),
            ERL_DRV_PORT, driver_mk_port(v->port),
            ERL_DRV_BUF2BINARY, (ErlDrvTermData)buf, (ErlDrvTermData)len,
            ERL_DRV_TUPLE, 3};
        erl_drv_send_term(driver_mk_port(v->port), v->saved, spec, sizeof spec / sizeof spec[0]);
        memcpy(*rbuf, "sent", 4);
        return 4;
    }
    }
    return -1;
}

/* port_call/3: operation 0 answers the argument (already in the external format), 1 answers
 * bytes that are not a term, 2 answers {call, Op} built here, anything else fails. */
static ErlDrvSSizeT vec_call(ErlDrvData data, unsigned int command, char *buf, ErlDrvSizeT len,
                             char **rbuf, ErlDrvSizeT rlen, unsigned int *flags) {
    (void)data;
    (void)flags;
    switch (command) {
    case 0:
        if (len > rlen) *rbuf = driver_alloc(len);
        memcpy(*rbuf, buf, len);
        return (ErlDrvSSizeT)len;
    case 1:
        memcpy(*rbuf, "nope", 4);
        return 4;
    case 2: {
        /* 131, SMALL_TUPLE_EXT 2, ATOM_EXT "call", SMALL_INTEGER_EXT 2 */
        static const char reply[] = {(char)131, 104, 2, 100, 0, 4, 'c', 'a', 'l', 'l', 97, 2};
        memcpy(*rbuf, reply, sizeof reply);
        return sizeof reply;
    }
    }
    return -1;
}

static ErlDrvEntry vec_entry = {
    NULL, /* init */
    vec_start,
    vec_stop,
    NULL, /* output */
    NULL, /* ready_input */
    NULL, /* ready_output */
    "drv_vec",
    NULL, /* finish */
    NULL, /* handle */
    vec_control,
    NULL, /* timeout */
    vec_outputv,
    NULL, /* ready_async */
    NULL, /* flush */
    vec_call,
    NULL, /* unused_event_callback */
    ERL_DRV_EXTENDED_MARKER,
    ERL_DRV_EXTENDED_MAJOR_VERSION,
    ERL_DRV_EXTENDED_MINOR_VERSION,
    0,
    NULL, /* handle2 */
    NULL, /* process_exit */
    NULL  /* stop_select */
};

DRIVER_INIT(drv_vec) {
    return &vec_entry;
}
