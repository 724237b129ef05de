/*===- Program.h - The C ABI between a compiled model and the runtime ------===*
 *
 * Implements nothing: declares the plain-C structures through which a
 * compiled model hands itself to the runtime (ModelrtProgram), the training
 * configuration the compiler fills from the `train` and `data` blocks
 * (ModelrtTrainConfig), and the entry point `modelrt_main`. Documented in
 * docs/runtime.md. All arrays are owned by the program and outlive the run.
 * The options' fields and kinds come from the training configuration's
 * schema, support/include/modelsupport/TrainConfig.def.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MODELRT_CORE_PROGRAM_H
#define MODELRT_CORE_PROGRAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MODELRT_ABI_VERSION 6

/* Element types (same values as modelrt::DType). Parameters and state are
 * f32; inputs f32, or i32/i64 ids; labels i64 class indices or f32. */
enum { MODELRT_F32 = 0, MODELRT_F64 = 1, MODELRT_I32 = 2, MODELRT_I64 = 3, MODELRT_U8 = 4 };

/* Parameter initialisers. fan_in/fan_out come from the descriptor. */
enum {
  MODELRT_INIT_ZEROS = 0,          /* 0 */
  MODELRT_INIT_CONSTANT = 1,       /* args[0] */
  MODELRT_INIT_UNIFORM = 2,        /* U(args[0], args[1]) */
  MODELRT_INIT_NORMAL = 3,         /* N(mean args[0], std args[1]) */
  MODELRT_INIT_XAVIER_UNIFORM = 4, /* U(+-gain*sqrt(6/(fan_in+fan_out))), gain args[0] (0 -> 1) */
  MODELRT_INIT_XAVIER_NORMAL = 5,  /* N(0, gain*sqrt(2/(fan_in+fan_out))) */
  MODELRT_INIT_KAIMING_UNIFORM = 6,/* U(+-gain*sqrt(3/fan_in)), gain args[0] (0 -> sqrt 2) */
  MODELRT_INIT_KAIMING_NORMAL = 7  /* N(0, gain/sqrt(fan_in)) */
};

/* One parameter or state tensor. */
typedef struct ModelrtTensorDesc {
  const char *name;      /* unique, e.g. "fc1.weight" */
  int32_t dtype;         /* MODELRT_F32 */
  int32_t rank;
  const int64_t *shape;  /* rank entries, all static */
  int32_t init_kind;     /* MODELRT_INIT_* */
  double init_args[2];
  int64_t fan_in, fan_out;
} ModelrtTensorDesc;

/* The kinds of optimizer (MODELRT_OPT_SGD, _ADAM, _ADAMW, _RMSPROP), schedule
 * (MODELRT_SCHED_CONSTANT, _STEP, _MULTISTEP, _EXPONENTIAL, _COSINE,
 * _PLATEAU) and early stopping (MODELRT_STOP_PATIENCE), from the schema
 * modelsupport/TrainConfig.def (same values as the C++ enums); the
 * data formats. */
enum {
#define MODELRT_KIND(GROUP, NAME, ENUM, VALUE, DOC) ENUM = VALUE,
#include "modelsupport/TrainConfig.def"
};
enum {
  MODELRT_DATA_NONE = 0,
  MODELRT_DATA_IDX = 1,
  MODELRT_DATA_CSV = 2,
  MODELRT_DATA_NPY = 3,
  MODELRT_DATA_IMAGES = 4, /* an image folder: train_inputs/test_inputs are folders */
  MODELRT_DATA_TEXT = 5    /* a text file of tokens (seq_len > 0) */
};

/* How a text becomes tokens (modelsupport/Text.h): one per UTF-8 character
 * (ids index ModelrtProgram.vocab) or one per byte (ids 0..255). */
enum { MODELRT_TOKENS_CHARS = 1, MODELRT_TOKENS_BYTES = 2 };

/* Training augmentations (modelsupport/Augment.def), applied to each
 * training sample [H, W] or [C, H, W] in the order given. Images keep their
 * shape. "Input units" are values after the data's input transform;
 * "stored units" are the file's values before it (the runtime maps them
 * per channel with scale, mean and std).
 *   MODELRT_AUG_HFLIP         args[0] p: mirror left-right with probability p
 *   MODELRT_AUG_CROP          args[0] pad: shift by (dy, dx), each uniform in
 *                             [-pad, pad], zeros entering (a crop of the
 *                             zero-padded image)
 *   MODELRT_AUG_RESIZED_CROP  args[0..1] scale, args[2..3] ratio: a box of
 *                             torchvision's RandomResizedCrop, resized back
 *                             to H x W (bilinear, half-pixel centres)
 *   MODELRT_AUG_ROTATION      args[0] degrees d, args[1] fill (stored units):
 *                             rotation by U(-d, d) degrees about the centre
 *                             (counter-clockwise for positive), bilinear
 *   MODELRT_AUG_COLOR_JITTER  args[0..2] brightness, contrast, saturation
 *                             (0: off), args[3] white (stored units: 255 or
 *                             1; black is 0): torchvision's ColorJitter
 *                             (factors, random order) on pixels in [0, 1]
 *   MODELRT_AUG_ERASING       args[0] p, args[1..2] scale, args[3..4] ratio,
 *                             args[5] value (input units): torchvision's
 *                             RandomErasing */
enum {
#define MODELRT_AUGMENT(NAME, ENUM, VALUE, ARGS, SIGNATURE) ENUM = VALUE,
#include "modelsupport/Augment.def"
};
#define MODELRT_AUGMENT_ARGS 6

/* One augmentation: a MODELRT_AUG_* kind and its arguments (unused ones 0). */
typedef struct ModelrtAugment {
  int32_t kind;
  double args[MODELRT_AUGMENT_ARGS];
} ModelrtAugment;

/* The scalar fields of the configuration structs, in the order of
 * modelsupport/TrainConfig.def (which documents each field). */
#define MODELRT_FIELD_I32(NAME) int32_t NAME;
#define MODELRT_FIELD_I64(NAME) int64_t NAME;
#define MODELRT_FIELD_U64(NAME) uint64_t NAME;
#define MODELRT_FIELD_F64(NAME) double NAME;
#define MODELRT_FIELD_I64_LIST(NAME) int32_t num_##NAME; const int64_t *NAME;

typedef struct ModelrtOptimizerConfig {
#define MODELRT_ABI_OPTIMIZER(TYPE, NAME, READ, CXX) MODELRT_FIELD_##TYPE(NAME)
#include "modelsupport/TrainConfig.def"
} ModelrtOptimizerConfig;

typedef struct ModelrtScheduleConfig {
#define MODELRT_ABI_SCHEDULE(TYPE, NAME, READ, CXX) MODELRT_FIELD_##TYPE(NAME)
#include "modelsupport/TrainConfig.def"
} ModelrtScheduleConfig;

typedef struct ModelrtDataConfig {
  int32_t format;                /* MODELRT_DATA_* */
  const char *train_inputs;      /* IDX/NPY inputs file, or the CSV file */
  const char *train_labels;      /* IDX/NPY labels file (unused for CSV) */
  const char *test_inputs;       /* may be NULL: then val_fraction splits train */
  const char *test_labels;
  int32_t num_columns;           /* CSV: input columns (0 = all but the labels) */
  const char *const *columns;
  int32_t num_label_columns;     /* CSV: one label column gives labels [N] */
  const char *const *label_columns; /* (i64 or f32), k columns f32 [N, k] */
  double scale;                  /* x*scale, e.g. 1/255; 0 -> 1 */
  int32_t num_norm;              /* 0, 1 (global) or channels */
  const double *mean, *std;
  int32_t one_hot;               /* labels given to steps as one-hot f32 */
  double val_fraction;           /* 0: none */
  int32_t num_augment;           /* training augmentations, in order */
  const ModelrtAugment *augment;
  int32_t drop_last;
  /* MODELRT_DATA_IMAGES: each image is converted to input_shape[0]
   * channels, resized to resize_height x resize_width when those are > 0,
   * then, when center_crop is non-zero, its centre input_shape[1] x
   * input_shape[2] is cut out (runtime/include/modelrt/data/ImageFolder.h). */
  int64_t resize_height, resize_width;
  int32_t center_crop;
  /* Token streams (ABI 5): when seq_len > 0, train_inputs/test_inputs are
   * streams of token ids (MODELRT_DATA_TEXT: a text file, read as `tokens`
   * MODELRT_TOKENS_*; MODELRT_DATA_NPY: a 1-D integer array; no label
   * files). Sample s is the window ids[s, s + seq_len), its labels
   * ids[s + 1, s + seq_len + 1); val_fraction holds out the stream's last
   * tokens (modelsupport/Text.h). */
  int64_t seq_len;
  int32_t tokens;
} ModelrtDataConfig;

typedef struct ModelrtTrainConfig {
  ModelrtOptimizerConfig optimizer;
  ModelrtScheduleConfig schedule;
  ModelrtDataConfig data;
#define MODELRT_ABI_TRAIN(TYPE, NAME) MODELRT_FIELD_##TYPE(NAME)
#include "modelsupport/TrainConfig.def"
} ModelrtTrainConfig;

#undef MODELRT_FIELD_I32
#undef MODELRT_FIELD_I64
#undef MODELRT_FIELD_U64
#undef MODELRT_FIELD_F64
#undef MODELRT_FIELD_I64_LIST

/* Entry points. Tensors are dense row-major f32 unless said otherwise;
 * `params`/`state`/`grads` are arrays of one pointer per table entry.
 * `inputs` is [batch, input_shape...] of input_dtype (f32, or i32/i64 ids:
 * the pointer type is f32's whatever the element type); `labels` is
 * [batch, label_shape...] i64 class indices, or [batch, classes] f32 when
 * one-hot, or [batch, label_shape...] f32 targets. `loss` receives the mean loss over the batch, `grads` the
 * gradients of that mean, `metric_sums` the SUM over the batch of each
 * declared metric (the runtime divides by the sample count). `state` may be
 * updated by train_step (e.g. running statistics). Return 0 on success;
 * non-zero aborts the run. `ctx` is ModelrtProgram.context. */
typedef int (*ModelrtTrainStepFn)(void *ctx, float *const *params, float *const *state,
                                  const float *inputs, const void *labels, int64_t batch,
                                  uint64_t seed, int64_t step, float *loss,
                                  float *const *grads, double *metric_sums);
typedef int (*ModelrtEvalStepFn)(void *ctx, float *const *params, float *const *state,
                                 const float *inputs, const void *labels, int64_t batch,
                                 float *loss, double *metric_sums);
/* outputs: [batch, output_shape...] f32 */
typedef int (*ModelrtPredictFn)(void *ctx, float *const *params, float *const *state,
                                const float *inputs, int64_t batch, float *outputs);

/* One top-level layer of the model, for `info` (a stdlib call instance such
 * as "linear_0", or a builtin called in the model's body such as "relu"):
 * all figures per sample. */
typedef struct ModelrtLayerInfo {
  const char *name;
  int32_t rank;                    /* of the output, without the batch dim */
  const int64_t *shape;
  int64_t num_params;              /* elements of the parameters it owns */
  double flops;                    /* forward FLOPs (a multiply-add is 2) */
  int64_t activation_bytes;        /* bytes of its output */
} ModelrtLayerInfo;

/* The precision of the products and convolutions (ABI 6,
 * docs/precision.md): f32; bf16 operands with f32 accumulation; or TF32
 * operands on the GPU, where the CPU code runs them in f32. */
enum { MODELRT_PRECISION_F32 = 0, MODELRT_PRECISION_BF16 = 1, MODELRT_PRECISION_TF32 = 2 };

/* What a program's GPU convolutions call (modelc --gpu-conv): none (no GPU
 * code), im2col and cuBLAS products, or cuDNN 9 (loaded at run time). */
enum { MODELRT_GPU_CONV_NONE = 0, MODELRT_GPU_CONV_IM2COL = 1, MODELRT_GPU_CONV_CUDNN = 2 };

/* The kinds of product whose operands the runtime rounds to bf16. */
enum { MODELRT_PRODUCT_MATMUL = 0, MODELRT_PRODUCT_CONV = 1 };

/* The two operands of one bf16 product of train_step (ABI 6), for `info`'s
 * memory plan: operand i holds fixed_elements[i] + batch *
 * per_sample_elements[i] elements (a weight is fixed, an activation or a
 * gradient per sample). Convolutions: the forward's input and weight, the
 * input gradient's output gradient and weight, the weight gradient's
 * output gradient and input. */
typedef struct ModelrtProductOperands {
  int32_t kind;                    /* MODELRT_PRODUCT_* */
  int64_t fixed_elements[2];
  int64_t per_sample_elements[2];
} ModelrtProductOperands;

/* One decoding step: the model's output at position `pos` of one sequence,
 * given that position's input alone (`input`: the elements of one position,
 * input_shape without its first dimension, of the input's element type)
 * and the caches (one pointer per entry of ModelrtProgram.caches, each a
 * key or value cache of one attention), which it updates in place: their
 * row `pos` is written, rows 0..pos are read. `output` receives the output
 * at that position, output_shape without its first dimension (f32). A
 * sequence is decoded from zeroed caches with pos = 0, 1, ...,
 * decode_length - 1; stepping a position again overwrites its rows.
 * Returns 0 on success. */
typedef int (*ModelrtDecodeStepFn)(void *ctx, float *const *params, float *const *state,
                                   float *const *caches, const void *input, int64_t pos,
                                   float *output);

/* The thread-count hint: the program may size its own worker pool. */
typedef void (*ModelrtSetThreadsFn)(void *ctx, int32_t threads);

typedef struct ModelrtProgram {
  uint32_t abi_version;            /* MODELRT_ABI_VERSION */
  const char *name;
  int32_t num_params;
  const ModelrtTensorDesc *params;
  int32_t num_state;
  const ModelrtTensorDesc *state;
  int32_t input_rank;              /* per sample, without the batch dim */
  const int64_t *input_shape;
  int32_t input_dtype;             /* MODELRT_F32, or MODELRT_I32/_I64 ids (ABI 5) */
  int32_t label_dtype;             /* MODELRT_I64 (classes) or MODELRT_F32 */
  int64_t num_classes;             /* > 0 for classification */
  int32_t label_rank;              /* per-sample label shape: f32 targets', or */
  const int64_t *label_shape;      /* i64 classes' ([]: per sample, [T]: per token) */
  int32_t output_rank;
  const int64_t *output_shape;
  int32_t num_metrics;             /* e.g. {"accuracy"}; loss is implicit */
  const char *const *metric_names;
  ModelrtTrainConfig config;       /* defaults from the train/data blocks */
  void *context;
  ModelrtTrainStepFn train_step;
  ModelrtEvalStepFn eval_step;
  ModelrtPredictFn predict;
  /* Optional fields added after the first ABI 1 release; a program that
   * leaves them zero/NULL keeps working. */
  double train_flops_per_sample;   /* FLOPs of train_step per sample (forward +
                                      backward); 0 = unknown. `info` prints it
                                      times the batch size. */
  ModelrtSetThreadsFn set_threads; /* may be NULL; called once with the
                                      `--threads N` hint (N >= 1) before any
                                      step when the user gives --threads. */
  /* The GPU versions of the entry points (NULL when the model was compiled
   * without GPU code): the same signatures, but params, state, inputs,
   * labels, grads and outputs are device pointers (loss and metric_sums stay
   * host pointers). They return non-zero after a CUDA error
   * (modelrt_cuda_status, runtime/include/modelrt/cuda/GpuAbi.h). */
  ModelrtTrainStepFn gpu_train_step;
  ModelrtEvalStepFn gpu_eval_step;
  ModelrtPredictFn gpu_predict;
  /* gpu_train_step in two halves (NULL in programs compiled before them),
   * called with the same arguments: gpu_train_enqueue enqueues the step's
   * device work on the compute stream and waits for nothing (it reads only
   * params, state, inputs, labels, batch, seed and grads; every launch and
   * copy can be captured into a CUDA graph); gpu_train_finish fetches the
   * scalar results (one copy, one wait) and writes loss and metric_sums.
   * gpu_train_step is gpu_train_enqueue followed by gpu_train_finish. */
  ModelrtTrainStepFn gpu_train_enqueue;
  ModelrtTrainStepFn gpu_train_finish;
  /* The class names (ABI 4): class_names[i] names class index i, for
   * num_class_names == num_classes entries (an image folder's class folders,
   * a CSV's string labels sorted); 0/NULL = none. Kept in checkpoints,
   * printed by `predict` and `info`; CSV string labels are mapped to their
   * index in this list. */
  int32_t num_class_names;
  const char *const *class_names;
  /* The model's top-level layers in the order they compute, for `info`'s
   * layer table and memory plans; 0/NULL = unknown (info then prints no
   * layer table and no activation estimate). */
  int32_t num_layers;
  const ModelrtLayerInfo *layers;
  /* ABI 5. Integer inputs are ids in [0, input_id_limit) (the rows of the
   * smallest embedding table they index; 0 = unchecked): the runtime
   * refuses data outside it. cross_entropy's ignore_index, when
   * has_ignore_index: labels equal to it are no class (never checked
   * against num_classes) and count in no metric. The vocabulary of text
   * read as MODELRT_TOKENS_CHARS: id i is the Unicode code point vocab[i]
   * (sorted; 0/NULL = none), kept in checkpoints. */
  int64_t input_id_limit;
  int32_t has_ignore_index;
  int64_t ignore_index;
  int32_t num_vocab;
  const int32_t *vocab;
  /* ABI 5. Decoding one position at a time (NULL/0 when the model has no causal
   * attention or is not computed position by position; the GPU has none):
   * decode_step, the key/value caches it reads and writes (f32, rank 4,
   * [1, heads, decode_length, width], initialiser ZEROS; names
   * "cache<c>.key" and "cache<c>.value"), and decode_length, the positions
   * of a sequence (the input's first dimension). */
  ModelrtDecodeStepFn decode_step;
  int32_t num_caches;
  const ModelrtTensorDesc *caches;
  int64_t decode_length;
  /* ABI 6. The precision of the CPU code's products (MODELRT_PRECISION_*)
   * and, in bf16, the operands of train_step's bf16 products, in the order
   * they compute (0/NULL in f32). */
  int32_t precision;
  int32_t num_bf16_products;
  const ModelrtProductOperands *bf16_products;
  /* ABI 6. Nonzero when the model computes values in bf16 or f16 (its own
   * element types, docs/language.md): its loss then moves in steps, which
   * finite differences cannot follow. */
  int32_t rounded_values;
  /* ABI 6. What the GPU code's convolutions call (MODELRT_GPU_CONV_*; NONE
   * in a program without GPU code), for `info`. */
  int32_t gpu_convolutions;
} ModelrtProgram;

/* The executable's main: `train`, `eval`, `predict`, `info` (see docs/cli.md).
 * Returns the process exit status. */
int modelrt_main(int argc, char **argv, const ModelrtProgram *program);

#ifdef __cplusplus
}
#endif

#endif /* MODELRT_CORE_PROGRAM_H */
