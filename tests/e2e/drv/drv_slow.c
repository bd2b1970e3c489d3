/* tests/e2e/drv/drv_slow.c — a loaded driver that takes its time: port_control(P, 1, _) arms
 * its timer at zero, whose timeout sleeps 150 ms in the port's own turn; port_control(P, 2, _)
 * sleeps 150 ms inside the call (the caller's turn). For erlang:system_monitor's long_schedule. */
#include <string.h>
#include <unistd.h>

#include "erl_driver.h"

static ErlDrvData slow_start(ErlDrvPort port, char *command) {
    return (ErlDrvData)port;
}

static void slow_stop(ErlDrvData data) {
}

static void slow_timeout(ErlDrvData data) {
    usleep(150000);
}

static ErlDrvSSizeT slow_control(ErlDrvData data, unsigned int command, char *buf, ErlDrvSizeT len,
                                 char **rbuf, ErlDrvSizeT rlen) {
    memcpy(*rbuf, "ok", 2);
    if (command == 1)
        driver_set_timer((ErlDrvPort)data, 0);
    else
        slow_timeout(data);
    return 2;
}

static ErlDrvEntry slow_entry = {
    NULL, slow_start, slow_stop, NULL, NULL, NULL, "drv_slow", NULL, NULL, slow_control, slow_timeout,
    NULL, NULL, NULL, NULL, NULL,
    ERL_DRV_EXTENDED_MARKER, ERL_DRV_EXTENDED_MAJOR_VERSION, ERL_DRV_EXTENDED_MINOR_VERSION,
    0, NULL, NULL, NULL
};

DRIVER_INIT(drv_slow) {
    return &slow_entry;
}
