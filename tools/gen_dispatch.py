#!/usr/bin/env python3
"""Generates icd/dispatch_table.c (the 150-slot ICD dispatch table, every slot filled) and
icd/unsupported.c (entry points of optional features hetGPU does not provide) from the
system's CL/cl_icd.h. Run: python3 tools/gen_dispatch.py [path/to/cl_icd.h]."""
import re, subprocess, sys, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Entry points hetGPU does not implement because the optional feature is not advertised
# (no images, samplers, pipes, SVM, GL/EGL/D3D sharing, built-in kernels, spec constants,
# device partitioning, host timer, IL). Each returns the error the specification names
# for a context/device without that feature.
UNSUPPORTED = {
    # images and samplers (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)
    "clCreateImage2D": "CL_INVALID_OPERATION", "clCreateImage3D": "CL_INVALID_OPERATION",
    "clCreateImage": "CL_INVALID_OPERATION", "clCreateImageWithProperties": "CL_INVALID_OPERATION",
    "clGetImageInfo": "CL_INVALID_MEM_OBJECT",
    "clEnqueueReadImage": "CL_INVALID_MEM_OBJECT", "clEnqueueWriteImage": "CL_INVALID_MEM_OBJECT",
    "clEnqueueCopyImage": "CL_INVALID_MEM_OBJECT", "clEnqueueCopyImageToBuffer": "CL_INVALID_MEM_OBJECT",
    "clEnqueueCopyBufferToImage": "CL_INVALID_MEM_OBJECT", "clEnqueueMapImage": "CL_INVALID_MEM_OBJECT",
    "clEnqueueFillImage": "CL_INVALID_MEM_OBJECT",
    "clCreateSampler": "CL_INVALID_OPERATION", "clCreateSamplerWithProperties": "CL_INVALID_OPERATION",
    "clRetainSampler": "CL_INVALID_SAMPLER", "clReleaseSampler": "CL_INVALID_SAMPLER",
    "clGetSamplerInfo": "CL_INVALID_SAMPLER",
    # pipes
    "clCreatePipe": "CL_INVALID_OPERATION", "clGetPipeInfo": "CL_INVALID_MEM_OBJECT",
    # shared virtual memory (CL_DEVICE_SVM_CAPABILITIES is 0)
    "clEnqueueSVMFree": "CL_INVALID_OPERATION", "clEnqueueSVMMemcpy": "CL_INVALID_OPERATION",
    "clEnqueueSVMMemFill": "CL_INVALID_OPERATION", "clEnqueueSVMMap": "CL_INVALID_OPERATION",
    "clEnqueueSVMUnmap": "CL_INVALID_OPERATION", "clEnqueueSVMMigrateMem": "CL_INVALID_OPERATION",
    "clSetKernelArgSVMPointer": "CL_INVALID_OPERATION", "clSetKernelExecInfo": "CL_INVALID_OPERATION",
    # device partitioning (CL_DEVICE_PARTITION_MAX_SUB_DEVICES is 0)
    "clCreateSubDevices": "CL_INVALID_VALUE", "clCreateSubDevicesEXT": "CL_INVALID_OPERATION",
    "clRetainDeviceEXT": "CL_INVALID_OPERATION", "clReleaseDeviceEXT": "CL_INVALID_OPERATION",
    # built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty)
    "clCreateProgramWithBuiltInKernels": "CL_INVALID_VALUE",
    # SPIR-V intermediate language and specialisation constants (CL_DEVICE_IL_VERSION is "")
    "clCreateProgramWithIL": "CL_INVALID_OPERATION", "clSetProgramSpecializationConstant": "CL_INVALID_OPERATION",
    "clSetProgramReleaseCallback": "CL_INVALID_OPERATION",
    "clSVMAlloc": "", "clSVMFree": "",
}
# Defined with default visibility in icd/ and platform/: a weak hidden twin would hide them.
EXPORTED = {"clGetPlatformInfo", "clGetExtensionFunctionAddress", "clGetExtensionFunctionAddressForPlatform"}
GL_LIKE = re.compile(r"GL|EGL|D3D|DX9|KHR$|EXT$|INTEL$")

def split_params(params):
    """Splits a parameter list at top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            parts.append(cur.strip()); cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts

TYPE_WORD = r"cl_\w+|size_t|int|unsigned|char|void|long|short|float|double|intptr_t"

def named_params(params):
    """Gives every parameter a name (C11 definitions need them)."""
    out = []
    parts = split_params(params)
    for i, p in enumerate(parts):
        if p == "void":
            return "void"
        if i == len(parts) - 1 and re.fullmatch(r"cl_int\s*\*", p):  # unnamed in some headers
            out.append("cl_int *errcode_ret")
            continue
        if "(" in p:  # function pointer: name sits in (CL_CALLBACK *name)
            if not re.search(r"\*\s*\w+\s*\)", p.split(")(")[0] + ")"):
                p = re.sub(r"\*\s*\)", f"*p{i})", p, count=1)
        elif p.endswith("*") or re.fullmatch(TYPE_WORD, re.findall(r"\w+", p)[-1]):
            p = f"{p} p{i}"
        out.append(p)
    return ", ".join(out)

def preprocess():
    src = '#define CL_TARGET_OPENCL_VERSION 300\n#include <CL/cl_icd.h>\n'
    return subprocess.run(["cc", "-E", "-P", "-x", "c", "-"], input=src, capture_output=True, text=True,
                          check=True).stdout

def main():
    text = re.sub(r"__attribute__\s*\(\(\s*deprecated\s*\)\)", "", preprocess())
    struct = re.search(r"typedef struct _cl_icd_dispatch \{(.*?)\} cl_icd_dispatch;", text, re.S).group(1)
    fields = re.findall(r"(\w+)\s+(\w+)\s*;", struct)
    assert len(fields) >= 140, len(fields)
    protos = {}
    for m in re.finditer(r"typedef\s+([^;]*?)\(\s*\*\s*cl_api_(\w+)\s*\)\s*\((.*?)\)\s*;", text, re.S):
        protos[m.group(2)] = (" ".join(m.group(1).split()), " ".join(m.group(3).split()))
    out = ['/* Generated by tools/gen_dispatch.py from CL/cl_icd.h: do not edit. */',
           '#include "icd/entry_points.h"', '', 'const cl_icd_dispatch hg_dispatch = {']
    unsup = ['/* Generated by tools/gen_dispatch.py: the entry points of optional features hetGPU does not',
             ' * provide. Each returns the error the OpenCL specification names for a platform whose',
             ' * device lacks the feature, so applications see it as absent, never as broken. */',
             '#include "icd/entry_points.h"', '']
    decls = []
    for typ, name in fields:
        if name not in protos:  # slot typed void * here (Windows-only interop): a generic refusal
            out.append(f"    .{name} = (void *)hg_unsupported_entry,")
            continue
        ret, params = protos[name]
        params = named_params(params)
        out.append(f"    .{name} = {name},")
        if name in UNSUPPORTED or (GL_LIKE.search(name) and name not in ("clGetExtensionFunctionAddress",)):
            code = UNSUPPORTED.get(name, "CL_INVALID_OPERATION")
            names = re.findall(r"(\w+)\s*(?:\[\s*\])?\s*(?:,|$)", params)
            body = []
            if ret == "cl_int":
                body.append(f"  return {code};")
            elif "errcode_ret" in params:
                body.append(f"  if (errcode_ret) *errcode_ret = {code};")
                body.append("  return NULL;")
            elif ret.startswith("void") and "*" not in ret:
                body.append("  return;")
            else:
                body.append("  return NULL;")
            unsup.append(f"{ret} CL_API_CALL {name}({params}) {{")
            unsup.extend(body)
            unsup.append("}")
            unsup.append("")
    out.append("};")
    open(os.path.join(ROOT, "icd/dispatch_table.c"), "w").write("\n".join(out) + "\n")
    open(os.path.join(ROOT, "icd/unsupported.c"), "w").write("\n".join(unsup))

main()
