//===- MappedDataset.h - Datasets of mapped NPY files (internal) -*- C++ -*-===//
//
// Declares the parts of Dataset.cpp's operations that concern a dataset
// whose samples stay in mapped NPY files (Dataset::mapped): the streaming
// validation pass, the reading of one sample or one sample's labels, and
// the normalisation, which samples held in memory share.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_DATA_MAPPEDDATASET_H
#define MODELRT_LIB_DATA_MAPPEDDATASET_H

#include "modelrt/data/Dataset.h"

namespace modelrt {

/// Checks every row of \p data's mapped files against \p rules (classes,
/// ids, finiteness after the conversion to f32 and the transform), with
/// the messages of validateDataset for data held in memory.
Status validateMapped(const Dataset &data, const DataRules &rules);

/// Applies \p t to the \p n values at \p x, the first of which is element
/// \p first of a [N, sample...] array of samples of \p per elements whose
/// channels (when \p t has more than one mean) are dimension 0 of a sample.
void applyTransform(const InputTransform &t, int64_t per, float *x, int64_t first, int64_t n);

/// Reads mapped sample \p s into \p dst (converted and transformed).
void readMappedSample(const Dataset &data, int64_t s, void *dst);
/// Reads mapped sample \p s's labels into \p dst.
void readMappedLabels(const Dataset &data, int64_t s, void *dst);

} // namespace modelrt

#endif // MODELRT_LIB_DATA_MAPPEDDATASET_H
