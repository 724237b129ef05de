//===- TensorBoard.h - TensorBoard event files ----------------------------===//
//
// Implements `EventWriter`, which writes `events.out.tfevents.TIME.HOST` in a
// log directory: TFRecord framing (u64 length, masked CRC-32C of the length,
// the data, masked CRC-32C of the data; all little-endian) around hand-encoded
// `tensorflow.Event` protos: wall_time (field 1, double), step (2, int64),
// file_version (3, "brain.Event:2") in the first record, session_log (7,
// `SessionLog{status (1) = START (1)}`) in the second, summary (5) holding
// `Summary.Value{tag (1), simple_value (2, float)}` for scalars. The START
// at the run's first step makes TensorBoard drop the events of that step
// and later ones that earlier files of the directory hold: a resumed run
// replaces what the interrupted run logged after its checkpoint.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_TENSORBOARD_H
#define MODELRT_IO_TENSORBOARD_H

#include "modelrt/core/Status.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace modelrt {

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of \p n bytes.
uint32_t crc32c(const void *data, size_t n);
/// TFRecord's masked CRC: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
uint32_t maskedCrc32c(const void *data, size_t n);

/// The Event proto carrying the file version.
std::string encodeFileVersionEvent(double wallTime);
/// The Event proto of a session's start (SessionLog START) at \p step:
/// TensorBoard discards the events it has read at \p step or later.
std::string encodeSessionStartEvent(double wallTime, int64_t step);
/// The Event proto carrying one scalar.
std::string encodeScalarEvent(double wallTime, int64_t step, const std::string &tag, float value);
/// \p data framed as one TFRecord.
std::string frameRecord(const std::string &data);

/// Whether \p name is an event file EventWriter writes
/// (events.out.tfevents.<unix time>.<host>.modelrt; TensorBoard reads any
/// name holding "tfevents"), not another program's.
bool isEventFileName(const std::string &name);

/// Appends scalar events to one event file.
class EventWriter {
public:
  /// Creates DIR/events.out.tfevents.<unix time>.<host>.modelrt (DIR must
  /// exist) and writes the file-version record and the session's start at
  /// \p firstStep, the first step whose scalars the writer will log (a
  /// resumed run's: its checkpoint's step + 1).
  static Expected<std::unique_ptr<EventWriter>> create(const std::string &dir, int64_t firstStep);
  ~EventWriter();
  EventWriter(const EventWriter &) = delete;
  EventWriter &operator=(const EventWriter &) = delete;

  /// Writes one scalar summary at \p step (wall time: now).
  Status addScalar(const std::string &tag, float value, int64_t step);
  /// Flushes buffered records to the file.
  Status flush();
  /// The event file's path.
  const std::string &path() const { return filePath; }

private:
  EventWriter(std::string path, FILE *file) : filePath(std::move(path)), file(file) {}
  Status writeRecord(const std::string &data);

  std::string filePath;
  FILE *file;
};

} // namespace modelrt

#endif // MODELRT_IO_TENSORBOARD_H
