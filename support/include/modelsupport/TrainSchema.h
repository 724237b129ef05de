//===- TrainSchema.h - The training options as C++ tables -------*- C++ -*-===//
//
// The entries of TrainConfig.def as constexpr tables: the train block's
// fields and scalar options, the kinds of optimizer, schedule and early
// stopping, and the settings of each kind, with their types, defaults,
// ranges, attribute keys and doc strings. Sema checks a train block
// against them, MLIRGen and Codegen encode and decode the `mdl.config`
// attribute with them, and the tests iterate over them. What each entry
// fills (a field of TrainDefaults or of the runtime's struct) is written
// where that struct is known, by including the .def itself.
//
// Deliberately no LLVM and no I/O: the runtime may include it.
//
//===----------------------------------------------------------------------===//
#ifndef MODELSUPPORT_TRAINSCHEMA_H
#define MODELSUPPORT_TRAINSCHEMA_H

#include "modelsupport/ShapeArith.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace modelsupport {

/// The three call-like settings of a train block.
enum class Group { Optimizer, Schedule, Stopping };
/// What a setting or option holds.
enum class SettingType {
  Real,    ///< any number
  Integer, ///< an integer literal
  Flag,    ///< true/false (or 1/0)
  IntList, ///< a non-empty strictly increasing list of integers
};
/// The type of a setting's value in the `mdl.config` attribute.
enum class AttrType { F64, I64, I64s };
/// How a setting's value becomes its ABI field.
enum class SettingMap {
  Copy,     ///< the value itself
  RunLength, ///< epochs (0: the run's), kept only when the source gives them
};

/// A value no default stands for: the setting must be given.
inline constexpr double kRequired = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// A valid interval and its message text.
struct Range {
  double lo, hi;
  bool loOpen, hiOpen;
  const char *text; ///< the valid values as error messages say them

  bool contains(double x) const {
    return (loOpen ? x > lo : x >= lo) && (hiOpen ? x < hi : x <= hi);
  }
};

/// A scalar option of a train block (`epochs = 10`).
struct OptionInfo {
  const char *name;
  SettingType type; ///< Integer or Real
  double dflt;
  Range range;
  AttrType attr;
  bool omitDefault; ///< the attribute leaves it out at its default
  const char *doc;
};

/// An optimizer, schedule or early-stopping rule.
struct KindInfo {
  Group group;
  const char *name;
  int32_t value; ///< the ABI struct's `kind`
  const char *doc;
};

/// A setting of a kind (`adam(beta1=0.8)`).
struct SettingInfo {
  const char *kind, *name;
  SettingType type;
  double dflt; ///< kRequired when it must be given
  Range range;
  const char *key; ///< its key in the group's attribute
  AttrType attr;
  SettingMap map;
  const char *doc;

  bool required() const { return std::isnan(dflt); }
};

namespace detail {
constexpr bool loOpen(const char *b) { return b[0] == 'O'; }
constexpr bool hiOpen(const char *b) { return b[1] == 'O'; }
} // namespace detail

#define MODELRT_INF ::modelsupport::kInf
#define MODELRT_MAX_BATCH double(::modelsupport::kMaxBatch)
#define MODELRT_REQUIRED ::modelsupport::kRequired
#define MODELSUPPORT_RANGE(LO, HI, BOUNDS, TEXT)                               \
  Range{LO, HI, detail::loOpen(#BOUNDS), detail::hiOpen(#BOUNDS), TEXT}

/// The fields of a train block in the order errors list them.
inline constexpr const char *kTrainFields[] = {
#define MODELRT_TRAIN_FIELD(NAME) #NAME,
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  #NAME,
#include "modelsupport/TrainConfig.def"
};

/// The scalar options.
inline constexpr OptionInfo kOptions[] = {
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  {#NAME,                                                                      \
   SettingType::TYPE,                                                          \
   DEFAULT,                                                                    \
   MODELSUPPORT_RANGE(LO, HI, BOUNDS, RANGE),                                  \
   AttrType::ENC,                                                              \
   #OMIT[0] == 'O',                                                            \
   DOC},
#define INT Integer
#define REAL Real
#include "modelsupport/TrainConfig.def"
#undef INT
#undef REAL
};

/// The kinds, grouped, in the order errors list them.
inline constexpr KindInfo kKinds[] = {
#define MODELRT_KIND(GROUP, NAME, ENUM, VALUE, DOC)                            \
  {Group::GROUP, #NAME, VALUE, DOC},
#define OPTIMIZER Optimizer
#define SCHEDULE Schedule
#define STOPPING Stopping
#include "modelsupport/TrainConfig.def"
#undef OPTIMIZER
#undef SCHEDULE
#undef STOPPING
};

/// The settings of every kind, in each kind's positional order.
inline constexpr SettingInfo kSettings[] = {
#define MODELRT_SETTING(KIND, NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, KEY, \
                        ENC, ABI, MAP, DOC)                                    \
  {#KIND,                                                                      \
   #NAME,                                                                      \
   SettingType::TYPE,                                                          \
   DEFAULT,                                                                    \
   MODELSUPPORT_RANGE(LO, HI, BOUNDS, RANGE),                                  \
   #KEY,                                                                       \
   AttrType::ENC,                                                              \
   SettingMap::MAP,                                                            \
   DOC},
#define INT Integer
#define REAL Real
#define FLAG Flag
#define INT_LIST IntList
#define I64S I64s
#define COPY Copy
#define RUN_LENGTH RunLength
#include "modelsupport/TrainConfig.def"
#undef INT
#undef REAL
#undef FLAG
#undef INT_LIST
#undef I64S
#undef COPY
#undef RUN_LENGTH
};

#undef MODELSUPPORT_RANGE

/// The kind `name` of `group`, or nullptr.
inline const KindInfo *findKind(Group group, const char *name) {
  for (const KindInfo &k : kKinds)
    if (k.group == group && std::strcmp(k.name, name) == 0)
      return &k;
  return nullptr;
}

/// The group of the kind `kind` (every kind has one).
inline Group groupOf(const char *kind) {
  for (const KindInfo &k : kKinds)
    if (std::strcmp(k.name, kind) == 0)
      return k.group;
  return Group::Optimizer;
}

/// The attribute key of a group's dictionary.
inline const char *groupKey(Group group) {
  switch (group) {
  case Group::Optimizer:
    return "optimizer";
  case Group::Schedule:
    return "schedule";
  case Group::Stopping:
    return "early_stopping";
  }
  return "";
}

} // namespace modelsupport

#endif // MODELSUPPORT_TRAINSCHEMA_H
