/* include/erl_driver.h — beamlet's port driver interface, for drivers loaded with erl_ddll.
 *
 * A source- and binary-compatible subset of OTP's erl_driver.h (driver API 3.3, OTP 25): the
 * types, the entry structure and the constants have OTP's layout and values, so a driver
 * written for OTP that uses only the functions declared here compiles unchanged against this
 * header (or against OTP's) and loads into beamlet with erl_ddll:load_driver/2:
 *
 *     gcc -I <beamlet>/include -fPIC -shared -o my_drv.so my_drv.c
 *
 * The functions are exported by the beamlet executable; the library resolves them when it is
 * loaded (a driver that calls a function beamlet lacks fails to load: {open_error, -10}).
 * What is implemented, and how beamlet departs from OTP, is listed in io/README.md.
 */
#ifndef BEAMLET_ERL_DRIVER_H
#define BEAMLET_ERL_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ERL_DRV_EXTENDED_MARKER (0xfeeeeeed)
#define ERL_DRV_EXTENDED_MAJOR_VERSION 3
#define ERL_DRV_EXTENDED_MINOR_VERSION 3
#define ERL_DRV_MIN_REQUIRED_MAJOR_VERSION_ON_LOAD 2

/* set_port_control_flags/2 */
#define PORT_CONTROL_FLAG_BINARY (1 << 0)
#define PORT_CONTROL_FLAG_HEAVY (1 << 1)

/* ErlDrvEntry.driver_flags */
#define ERL_DRV_FLAG_USE_PORT_LOCKING (1 << 0)
#define ERL_DRV_FLAG_SOFT_BUSY (1 << 1)
#define ERL_DRV_FLAG_NO_BUSY_MSGQ (1 << 2)
#define ERL_DRV_FLAG_USE_INIT_ACK (1 << 3)

/* driver_select/4 modes */
#define ERL_DRV_READ (1 << 0)
#define ERL_DRV_WRITE (1 << 1)
#define ERL_DRV_USE (1 << 2)
#define ERL_DRV_USE_NO_CALLBACK (ERL_DRV_USE | (ERL_DRV_USE << 1))

typedef uint64_t ErlDrvUInt64;
typedef int64_t ErlDrvSInt64;
typedef unsigned long ErlDrvUInt;
typedef signed long ErlDrvSInt;
typedef ErlDrvUInt ErlDrvTermData;
typedef size_t ErlDrvSizeT;
typedef ssize_t ErlDrvSSizeT;

typedef struct erl_drv_binary {
    ErlDrvSInt orig_size;
    char orig_bytes[1];
} ErlDrvBinary;

typedef struct _erl_drv_data *ErlDrvData;
typedef struct _erl_drv_event *ErlDrvEvent; /* a file descriptor, cast */
typedef struct _erl_drv_port *ErlDrvPort;
typedef struct _erl_drv_port *ErlDrvThreadData;
typedef struct iovec SysIOVec;

typedef struct {
    unsigned long megasecs;
    unsigned long secs;
    unsigned long microsecs;
} ErlDrvNowData;

typedef ErlDrvSInt64 ErlDrvTime;
#define ERL_DRV_TIME_ERROR ((ErlDrvSInt64)((((ErlDrvUInt64)1) << 63)))
typedef enum { ERL_DRV_SEC, ERL_DRV_MSEC, ERL_DRV_USEC, ERL_DRV_NSEC } ErlDrvTimeUnit;

/* What start() returns instead of its data when it fails. */
#define ERL_DRV_ERROR_GENERAL ((ErlDrvData)-1)
#define ERL_DRV_ERROR_ERRNO ((ErlDrvData)-2)
#define ERL_DRV_ERROR_BADARG ((ErlDrvData)-3)

typedef struct erl_io_vec {
    int vsize;
    ErlDrvSizeT size;
    SysIOVec *iov;
    ErlDrvBinary **binv;
} ErlIOVec;

typedef struct {
    unsigned char data[sizeof(void *) * 4];
} ErlDrvMonitor;

typedef struct {
    int driver_major_version;
    int driver_minor_version;
    char *erts_version;
    char *otp_release;
    int thread_support;
    int smp_support;
    int async_threads;
    int scheduler_threads;
    int nif_major_version;
    int nif_minor_version;
    int dirty_scheduler_support;
} ErlDrvSysInfo;

typedef struct ErlDrvMutex_ ErlDrvMutex;
typedef struct ErlDrvCond_ ErlDrvCond;
typedef struct ErlDrvTid_ *ErlDrvTid;
typedef struct {
    int suggested_stack_size; /* kilowords; -1: the default */
} ErlDrvThreadOpts;

typedef struct erl_drv_entry {
    int (*init)(void);
    ErlDrvData (*start)(ErlDrvPort port, char *command);
    void (*stop)(ErlDrvData drv_data);
    void (*output)(ErlDrvData drv_data, char *buf, ErlDrvSizeT len);
    void (*ready_input)(ErlDrvData drv_data, ErlDrvEvent event);
    void (*ready_output)(ErlDrvData drv_data, ErlDrvEvent event);
    char *driver_name;
    void (*finish)(void);
    void *handle;
    ErlDrvSSizeT (*control)(ErlDrvData drv_data, unsigned int command, char *buf, ErlDrvSizeT len, char **rbuf,
                            ErlDrvSizeT rlen);
    void (*timeout)(ErlDrvData drv_data);
    void (*outputv)(ErlDrvData drv_data, ErlIOVec *ev);
    void (*ready_async)(ErlDrvData drv_data, ErlDrvThreadData thread_data);
    void (*flush)(ErlDrvData drv_data);
    ErlDrvSSizeT (*call)(ErlDrvData drv_data, unsigned int command, char *buf, ErlDrvSizeT len, char **rbuf,
                         ErlDrvSizeT rlen, unsigned int *flags);
    void (*unused_event_callback)(void);
    int extended_marker;
    int major_version;
    int minor_version;
    int driver_flags;
    void *handle2;
    void (*process_exit)(ErlDrvData drv_data, ErlDrvMonitor *monitor);
    void (*stop_select)(ErlDrvEvent event, void *reserved);
    void (*emergency_close)(ErlDrvData drv_data);
} ErlDrvEntry;

/* A dynamically loaded driver's entry point: ErlDrvEntry* driver_init(void). */
#if defined(__GNUC__)
#define ERL_DRIVER_EXPORT __attribute__((visibility("default")))
#else
#define ERL_DRIVER_EXPORT
#endif
#define DRIVER_INIT(DRIVER_NAME)                        \
    ERL_DRIVER_EXPORT ErlDrvEntry *driver_init(void);   \
    ERL_DRIVER_EXPORT ErlDrvEntry *driver_init(void)

/* Term specifications for erl_drv_output_term/3 and erl_drv_send_term/4. */
#define ERL_DRV_NIL ((ErlDrvTermData)1)
#define ERL_DRV_ATOM ((ErlDrvTermData)2)
#define ERL_DRV_INT ((ErlDrvTermData)3)
#define ERL_DRV_PORT ((ErlDrvTermData)4)
#define ERL_DRV_BINARY ((ErlDrvTermData)5)
#define ERL_DRV_STRING ((ErlDrvTermData)6)
#define ERL_DRV_TUPLE ((ErlDrvTermData)7)
#define ERL_DRV_LIST ((ErlDrvTermData)8)
#define ERL_DRV_STRING_CONS ((ErlDrvTermData)9)
#define ERL_DRV_PID ((ErlDrvTermData)10)
#define ERL_DRV_FLOAT ((ErlDrvTermData)11)
#define ERL_DRV_EXT2TERM ((ErlDrvTermData)12)
#define ERL_DRV_UINT ((ErlDrvTermData)13)
#define ERL_DRV_BUF2BINARY ((ErlDrvTermData)14)
#define ERL_DRV_INT64 ((ErlDrvTermData)15)
#define ERL_DRV_UINT64 ((ErlDrvTermData)16)
#define ERL_DRV_MAP ((ErlDrvTermData)17)
#define TERM_DATA(x) ((ErlDrvTermData)(x))

/* Output to the port's owner. */
int driver_output(ErlDrvPort port, char *buf, ErlDrvSizeT len);
int driver_output2(ErlDrvPort port, char *hbuf, ErlDrvSizeT hlen, char *buf, ErlDrvSizeT len);
int driver_output_binary(ErlDrvPort port, char *hbuf, ErlDrvSizeT hlen, ErlDrvBinary *bin, ErlDrvSizeT offset,
                         ErlDrvSizeT len);
int driver_outputv(ErlDrvPort port, char *hbuf, ErlDrvSizeT hlen, ErlIOVec *ev, ErlDrvSizeT skip);
ErlDrvSizeT driver_vec_to_buf(ErlIOVec *ev, char *buf, ErlDrvSizeT len);
int erl_drv_output_term(ErlDrvTermData port, ErlDrvTermData *data, int len);
int erl_drv_send_term(ErlDrvTermData port, ErlDrvTermData receiver, ErlDrvTermData *data, int len);
int driver_output_term(ErlDrvPort port, ErlDrvTermData *data, int len);
int driver_send_term(ErlDrvPort port, ErlDrvTermData receiver, ErlDrvTermData *data, int len);

/* Terms for the specifications. */
ErlDrvTermData driver_mk_atom(char *string);
ErlDrvTermData driver_mk_port(ErlDrvPort port);
ErlDrvTermData driver_connected(ErlDrvPort port);
ErlDrvTermData driver_caller(ErlDrvPort port);
ErlDrvTermData driver_mk_term_nil(void);

/* The port. */
void set_port_control_flags(ErlDrvPort port, int flags);
void set_busy_port(ErlDrvPort port, int on);
int driver_failure_eof(ErlDrvPort port);
int driver_failure_atom(ErlDrvPort port, char *string);
int driver_failure_posix(ErlDrvPort port, int error);
int driver_failure(ErlDrvPort port, int error);
int driver_exit(ErlDrvPort port, int err);
char *erl_errno_id(int error);
int driver_select(ErlDrvPort port, ErlDrvEvent event, int mode, int on);
int driver_set_timer(ErlDrvPort port, unsigned long time);
int driver_cancel_timer(ErlDrvPort port);
int driver_read_timer(ErlDrvPort port, unsigned long *time_left);
int erl_drv_consume_timeslice(ErlDrvPort port, int percent);

/* The port's queue of output not yet written (driver_enq & co). */
int driver_enq(ErlDrvPort port, char *buf, ErlDrvSizeT len);
int driver_pushq(ErlDrvPort port, char *buf, ErlDrvSizeT len);
ErlDrvSizeT driver_deq(ErlDrvPort port, ErlDrvSizeT size);
ErlDrvSizeT driver_sizeq(ErlDrvPort port);
int driver_enq_bin(ErlDrvPort port, ErlDrvBinary *bin, ErlDrvSizeT offset, ErlDrvSizeT len);
int driver_pushq_bin(ErlDrvPort port, ErlDrvBinary *bin, ErlDrvSizeT offset, ErlDrvSizeT len);
SysIOVec *driver_peekq(ErlDrvPort port, int *vlen);
ErlDrvSizeT driver_peekqv(ErlDrvPort port, ErlIOVec *ev);

/* Memory and binaries. */
void *driver_alloc(ErlDrvSizeT size);
void *driver_realloc(void *ptr, ErlDrvSizeT size);
void driver_free(void *ptr);
ErlDrvBinary *driver_alloc_binary(ErlDrvSizeT size);
ErlDrvBinary *driver_realloc_binary(ErlDrvBinary *bin, ErlDrvSizeT size);
void driver_free_binary(ErlDrvBinary *bin);
ErlDrvSInt driver_binary_get_refc(ErlDrvBinary *dbp);
ErlDrvSInt driver_binary_inc_refc(ErlDrvBinary *dbp);
ErlDrvSInt driver_binary_dec_refc(ErlDrvBinary *dbp);

/* The system. */
void driver_system_info(ErlDrvSysInfo *sip, size_t si_size);
int driver_get_now(ErlDrvNowData *now);
ErlDrvTime erl_drv_monotonic_time(ErlDrvTimeUnit time_unit);
ErlDrvTime erl_drv_time_offset(ErlDrvTimeUnit time_unit);
ErlDrvTime erl_drv_convert_time_unit(ErlDrvTime val, ErlDrvTimeUnit from, ErlDrvTimeUnit to);
int erl_drv_getenv(const char *key, char *value, size_t *value_size);
int erl_drv_putenv(const char *key, char *value);

/* Threads' locks. */
ErlDrvMutex *erl_drv_mutex_create(char *name);
void erl_drv_mutex_destroy(ErlDrvMutex *mtx);
int erl_drv_mutex_trylock(ErlDrvMutex *mtx);
void erl_drv_mutex_lock(ErlDrvMutex *mtx);
void erl_drv_mutex_unlock(ErlDrvMutex *mtx);
char *erl_drv_mutex_name(ErlDrvMutex *mtx);
ErlDrvCond *erl_drv_cond_create(char *name);
void erl_drv_cond_destroy(ErlDrvCond *cnd);
void erl_drv_cond_signal(ErlDrvCond *cnd);
void erl_drv_cond_broadcast(ErlDrvCond *cnd);
void erl_drv_cond_wait(ErlDrvCond *cnd, ErlDrvMutex *mtx);
char *erl_drv_cond_name(ErlDrvCond *cnd);

/* Threads of the driver's own (they may send with erl_drv_send_term / erl_drv_output_term). */
ErlDrvThreadOpts *erl_drv_thread_opts_create(char *name);
void erl_drv_thread_opts_destroy(ErlDrvThreadOpts *opts);
int erl_drv_thread_create(char *name, ErlDrvTid *tid, void *(*func)(void *), void *args, ErlDrvThreadOpts *opts);
ErlDrvTid erl_drv_thread_self(void);
int erl_drv_equal_tids(ErlDrvTid tid1, ErlDrvTid tid2);
void erl_drv_thread_exit(void *resp);
int erl_drv_thread_join(ErlDrvTid tid, void **respp);
char *erl_drv_thread_name(ErlDrvTid tid);

#ifdef __cplusplus
}
#endif

#endif /* BEAMLET_ERL_DRIVER_H */
