/* The control socket of cl_hetgpu_migrate: each process using hetGPU listens on
 * $XDG_RUNTIME_DIR/hetgpu/<pid>.sock (or /tmp/hetgpu-<uid>/<pid>.sock) so that a scheduler,
 * through tools/hetgpu-ctl, can list its contexts, move them to another backend or checkpoint
 * them without the application's help. Protocol and settings: docs/control-socket.md. */
#ifndef HETGPU_PLATFORM_CONTROL_SOCKET_H
#define HETGPU_PLATFORM_CONTROL_SOCKET_H

/* Creates the socket and its listener thread once per process (later calls do nothing);
 * HETGPU_CONTROL=0 turns it off. Failures are logged under `migrate`, never reported: the
 * application runs the same without the socket. */
void hg_control_socket_start(void);

#endif
