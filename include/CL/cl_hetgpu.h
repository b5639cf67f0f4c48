/* cl_hetgpu_migrate: move a running OpenCL workload between the backends of the hetGPU
 * platform, checkpoint it to a file and restore it in another process.
 *
 * The specification is docs/cl_hetgpu_migrate.md; this header is its API. Obtain the functions
 * with clGetExtensionFunctionAddressForPlatform(platform, "clMigrateContextHETGPU") and so on
 * (the *_fn typedefs below), after checking that the platform's CL_PLATFORM_EXTENSIONS names
 * cl_hetgpu_migrate. */
#ifndef CL_HETGPU_H
#define CL_HETGPU_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define cl_hetgpu_migrate 1
#define CL_HETGPU_MIGRATE_EXTENSION_NAME "cl_hetgpu_migrate"
#define CL_HETGPU_MIGRATE_EXTENSION_VERSION CL_MAKE_VERSION(1, 3, 0)

/* A backend of the platform: 0 .. (number of backends - 1), stable for the life of the process. */
typedef cl_uint cl_backend_id_hetgpu;
typedef cl_uint cl_backend_info_hetgpu;
typedef cl_bitfield cl_migration_flags_hetgpu;
typedef cl_bitfield cl_checkpoint_flags_hetgpu;
typedef cl_uint cl_object_type_hetgpu;

/* Means "the backend HETGPU_BACKEND selects" where a function takes a target backend. */
#define CL_BACKEND_DEFAULT_HETGPU ((cl_backend_id_hetgpu)0xFFFFFFFFu)

/* cl_backend_info_hetgpu */
#define CL_BACKEND_NAME_HETGPU            0x7F00 /* char[]: the name HETGPU_BACKEND accepts, e.g. "riscv", "vendor:Portable Computing Language" */
#define CL_BACKEND_KIND_HETGPU            0x7F01 /* char[]: "vendor" or "riscv" */
#define CL_BACKEND_DEVICE_TYPE_HETGPU     0x7F02 /* cl_device_type of the physical device */
#define CL_BACKEND_DEVICE_NAME_HETGPU     0x7F03 /* char[] */
#define CL_BACKEND_PLATFORM_NAME_HETGPU   0x7F04 /* char[]: the vendor platform ("hetGPU RISC-V simulator" for riscv) */
#define CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU 0x7F05 /* cl_ulong: the physical device's memory */
#define CL_BACKEND_AVAILABLE_HETGPU       0x7F06 /* cl_bool: usable (CL_FALSE once its device was lost) */

/* clGetContextInfo */
#define CL_CONTEXT_BACKEND_HETGPU         0x7F10 /* cl_backend_id_hetgpu: where the context runs now */
#define CL_CONTEXT_MIGRATION_COUNT_HETGPU 0x7F11 /* cl_uint: migrations that completed */
#define CL_CONTEXT_LAST_MIGRATION_HETGPU  0x7F12 /* cl_migration_report_hetgpu of the latest attempt */

/* clGetKernelInfo */
#define CL_KERNEL_STOPPABLE_HETGPU        0x7F40 /* cl_bool: its launches can stop at safe points where the context
                                                    runs now (waits for the kernel's stoppable forms) (1.3.0) */

/* cl_migration_flags_hetgpu */
#define CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU (1u << 0) /* wait for running commands to end (the default) */
#define CL_MIGRATE_AT_SAFE_POINT_HETGPU      (1u << 1) /* stop running kernels at a safe point, resume on the target */
#define CL_MIGRATE_RELEASE_SOURCE_HETGPU     (1u << 2) /* free the buffers' memory on the source now (default: kept
                                                          for a move back until memory runs short) */

/* cl_checkpoint_flags_hetgpu */
#define CL_CHECKPOINT_AT_SAFE_POINT_HETGPU (1u << 1) /* kernels running are stopped at a safe point and written
                                                        to the file (then continue); without it the checkpoint
                                                        waits for every command enqueued before the call */

/* cl_object_type_hetgpu: the objects a context holds, for clGetContextObjectsHETGPU */
#define CL_OBJECT_COMMAND_QUEUE_HETGPU 0x7F20
#define CL_OBJECT_MEM_HETGPU           0x7F21
#define CL_OBJECT_PROGRAM_HETGPU       0x7F22
#define CL_OBJECT_KERNEL_HETGPU        0x7F23
#define CL_OBJECT_SAMPLER_HETGPU       0x7F24

/* cl_command_type of the command clEnqueueMigrateContextHETGPU enqueues */
#define CL_COMMAND_MIGRATE_CONTEXT_HETGPU 0x7F30

/* Errors */
#define CL_INVALID_BACKEND_HETGPU   -7100 /* no such backend, or it is not available */
#define CL_MIGRATION_TIMEOUT_HETGPU -7101 /* running commands did not reach the stop point in time */
#define CL_INVALID_SNAPSHOT_HETGPU  -7102 /* a checkpoint file is malformed, truncated or of another version */

/* What one migration cost, phase by phase (nanoseconds on CLOCK_MONOTONIC). */
typedef struct cl_migration_report_hetgpu {
  cl_backend_id_hetgpu source;
  cl_backend_id_hetgpu target;
  cl_int status;         /* CL_SUCCESS or the error the migration returned */
  cl_uint buffers;       /* root buffers made current on the target (bytes: what that copied) */
  cl_uint programs;      /* programs built on the target */
  cl_uint kernels;       /* kernels created on the target */
  cl_uint buffers_lost;  /* buffers whose every current copy was on a lost device: zeroed on the target */
  cl_uint kernels_stopped; /* kernel launches stopped at a safe point that resume on the target */
  cl_ulong bytes;        /* buffer bytes moved */
  cl_ulong quiesce_ns;   /* until no command ran any more on the source */
  cl_ulong capture_ns;   /* reading state off the source that is not buffer contents */
  cl_ulong transfer_ns;  /* moving buffer contents source -> target */
  cl_ulong build_ns;     /* building programs and kernels on the target */
  cl_ulong resume_ns;    /* committing or aborting, reopening the gate */
  cl_ulong total_ns;
  cl_ulong prepare_ns;   /* before the gate closed: building and allocating on the target (1.2.0) */
  cl_ulong downtime_ns;  /* the gate closed: quiesce through resume (1.2.0) */
} cl_migration_report_hetgpu;

typedef cl_int(CL_API_CALL *clGetBackendIDsHETGPU_fn)(cl_platform_id platform, cl_uint num_entries,
                                                     cl_backend_id_hetgpu *backends, cl_uint *num_backends);
typedef cl_int(CL_API_CALL *clGetBackendInfoHETGPU_fn)(cl_platform_id platform, cl_backend_id_hetgpu backend,
                                                      cl_backend_info_hetgpu param_name, size_t param_value_size,
                                                      void *param_value, size_t *param_value_size_ret);
typedef cl_int(CL_API_CALL *clMigrateContextHETGPU_fn)(cl_context context, cl_backend_id_hetgpu target,
                                                      cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                                      cl_migration_report_hetgpu *report);
typedef cl_int(CL_API_CALL *clEnqueueMigrateContextHETGPU_fn)(cl_command_queue queue, cl_backend_id_hetgpu target,
                                                             cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list, cl_event *event);
typedef cl_int(CL_API_CALL *clCheckpointContextHETGPU_fn)(cl_context context, const char *path,
                                                         cl_checkpoint_flags_hetgpu flags, cl_ulong timeout_ns);
typedef cl_context(CL_API_CALL *clRestoreContextHETGPU_fn)(cl_platform_id platform, const char *path,
                                                          cl_backend_id_hetgpu target, cl_int *errcode_ret);
typedef cl_int(CL_API_CALL *clGetContextObjectsHETGPU_fn)(cl_context context, cl_object_type_hetgpu type,
                                                         cl_uint num_entries, void **objects, cl_uint *num_objects);
typedef cl_int(CL_API_CALL *clSetObjectLabelHETGPU_fn)(void *object, const char *label);
typedef cl_int(CL_API_CALL *clGetObjectByLabelHETGPU_fn)(cl_context context, const char *label,
                                                        cl_object_type_hetgpu *type, void **object);

/* Prototypes, as Khronos headers declare extension functions. The ICD loader does not export
 * them: call them through the pointers clGetExtensionFunctionAddressForPlatform returns. */
extern CL_API_ENTRY cl_int CL_API_CALL clGetBackendIDsHETGPU(cl_platform_id platform, cl_uint num_entries,
                                                             cl_backend_id_hetgpu *backends, cl_uint *num_backends);
extern CL_API_ENTRY cl_int CL_API_CALL clGetBackendInfoHETGPU(cl_platform_id platform, cl_backend_id_hetgpu backend,
                                                              cl_backend_info_hetgpu param_name,
                                                              size_t param_value_size, void *param_value,
                                                              size_t *param_value_size_ret);
extern CL_API_ENTRY cl_int CL_API_CALL clMigrateContextHETGPU(cl_context context, cl_backend_id_hetgpu target,
                                                              cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                                              cl_migration_report_hetgpu *report);
extern CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateContextHETGPU(cl_command_queue queue,
                                                                     cl_backend_id_hetgpu target,
                                                                     cl_migration_flags_hetgpu flags,
                                                                     cl_ulong timeout_ns,
                                                                     cl_uint num_events_in_wait_list,
                                                                     const cl_event *event_wait_list, cl_event *event);
extern CL_API_ENTRY cl_int CL_API_CALL clCheckpointContextHETGPU(cl_context context, const char *path,
                                                                 cl_checkpoint_flags_hetgpu flags, cl_ulong timeout_ns);
extern CL_API_ENTRY cl_context CL_API_CALL clRestoreContextHETGPU(cl_platform_id platform, const char *path,
                                                                  cl_backend_id_hetgpu target, cl_int *errcode_ret);
extern CL_API_ENTRY cl_int CL_API_CALL clGetContextObjectsHETGPU(cl_context context, cl_object_type_hetgpu type,
                                                                 cl_uint num_entries, void **objects,
                                                                 cl_uint *num_objects);
extern CL_API_ENTRY cl_int CL_API_CALL clSetObjectLabelHETGPU(void *object, const char *label);
extern CL_API_ENTRY cl_int CL_API_CALL clGetObjectByLabelHETGPU(cl_context context, const char *label,
                                                                cl_object_type_hetgpu *type, void **object);

#ifdef __cplusplus
}
#endif

#endif
