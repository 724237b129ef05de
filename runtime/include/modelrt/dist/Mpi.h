//===- Mpi.h - The collective over an Open MPI library loaded at run time --===//
//
// Implements `openMpi`: loads Open MPI's libmpi (dlopen, so that an
// executable runs without MPI installed), resolves the MPI functions and
// Open MPI's predefined handles (MPI_COMM_WORLD is the address of the
// global `ompi_mpi_comm_world`, MPI_FLOAT of `ompi_mpi_float`, ...) by
// dlsym, initialises MPI and returns a Collective over MPI_COMM_WORLD.
// Sums are MPI_Iallreduce calls polled with MPI_Test under a deadline; on
// timeout each rank sends a message to every other one and names those it
// hears nothing from, and the caller aborts the run (MPI_Abort).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DIST_MPI_H
#define MODELRT_DIST_MPI_H

#include "modelrt/dist/Collective.h"

#include <string>

namespace modelrt {

/// Loads \p library (a path or a soname), initialises MPI and returns the
/// collective of MPI_COMM_WORLD whose waits end after \p timeoutSeconds.
/// An error, naming the library and why, when it cannot be loaded, is not
/// Open MPI, or MPI_Init_thread fails.
Expected<std::unique_ptr<Collective>> openMpi(const std::string &library,
                                              double timeoutSeconds);

} // namespace modelrt

#endif // MODELRT_DIST_MPI_H
