#ifndef PHOTOFILER_MICROHTTPD_SHIM_H
#define PHOTOFILER_MICROHTTPD_SHIM_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// The limits a gallery listener is started with; each one bounds what a client can make it hold.
struct photofiler_mhd_limits {
    unsigned int thread_pool_size;
    /// Open connections in all (MHD_OPTION_CONNECTION_LIMIT, shared out among the pool's
    /// threads): only a ceiling, the gallery keeps its own count, by address and by who
    /// the client has shown itself to be, in the accept policy and the connection notices.
    unsigned int connection_limit;
    /// Bytes a connection may hold, request headers included (MHD_OPTION_CONNECTION_MEMORY_LIMIT):
    /// a request whose headers do not fit is answered 431 by libmicrohttpd itself.
    size_t connection_memory;
    /// Seconds an idle connection of the owner's is kept (suspended event streams do not time out);
    /// anyone else's must send a whole request head within the gallery's own deadline.
    unsigned int timeout_seconds;
};

/// libmicrohttpd decodes `%00` in the path and the query to a NUL, and every C
/// string it then hands on ends there: `/api/assets/2%00x` would be asset 2. A
/// value holding `%00` is left as it came, so it names nothing (404 or 400); every
/// other value is decoded by libmicrohttpd's own unescape. In C: the option's
/// callback type has no typedef for Swift to write a closure of.
static size_t photofiler_mhd_unescape(void *context, struct MHD_Connection *connection, char *value)
{
    (void)context;
    (void)connection;
    if (strstr(value, "%00") != NULL) return strlen(value);
    return MHD_http_unescape(value);
}

/// MHD_start_daemon takes its options as C varargs, which Swift cannot call:
/// this fixed-argument wrapper passes the options photofiler uses and ends the list.
/// `address` is a `sockaddr_in`, or a `sockaddr_in6` with MHD_USE_IPv6 in `flags`.
static inline struct MHD_Daemon *photofiler_mhd_start(
    unsigned int flags, const struct sockaddr *address, uint16_t port, MHD_AccessHandlerCallback handler,
    void *handler_context, MHD_RequestCompletedCallback completed, MHD_LogCallback log,
    MHD_AcceptPolicyCallback accept, MHD_NotifyConnectionCallback notify, struct photofiler_mhd_limits limits)
{
    return MHD_start_daemon(
        flags, port, accept, handler_context, handler, handler_context,
        MHD_OPTION_EXTERNAL_LOGGER, log, handler_context,  /* first: it takes the messages of the others */
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, limits.thread_pool_size,
        MHD_OPTION_CONNECTION_LIMIT, limits.connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.connection_memory,
        MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
        MHD_OPTION_NOTIFY_CONNECTION, notify, handler_context,
        MHD_OPTION_UNESCAPE_CALLBACK, photofiler_mhd_unescape, NULL,
        MHD_OPTION_END);
}

/// The port the daemon listens on (port 0 asks the kernel for a free one).
/// MHD_get_daemon_info is variadic as well.
static inline uint16_t photofiler_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The socket of a connection, or -1. MHD_get_connection_info is variadic too.
/// An event stream watches a duplicate of it while it is suspended: libmicrohttpd
/// does not poll a suspended connection, so it would not see the client leave.
static inline int photofiler_mhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The client's address of a socket address, in `bytes` (16 at most): 4 bytes for
/// IPv4, and for an IPv4 client of a dual-stack socket (`::ffff:a.b.c.d`) as well,
/// 16 for IPv6; 0 for anything else.
static inline int photofiler_mhd_address_bytes(const struct sockaddr *address, uint8_t *bytes)
{
    if (address == NULL) return 0;
    if (address->sa_family == AF_INET) {
        memcpy(bytes, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(v6)) {
            memcpy(bytes, &v6->s6_addr[12], 4);
            return 4;
        }
        memcpy(bytes, v6->s6_addr, 16);
        return 16;
    }
    return 0;
}

/// The client's address of a connection (as `photofiler_mhd_address_bytes`).
static inline int photofiler_mhd_connection_address(struct MHD_Connection *connection, uint8_t *bytes)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? 0 : photofiler_mhd_address_bytes(info->client_addr, bytes);
}

#endif
