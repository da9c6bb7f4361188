#pragma once

#include "keyspace/Keyspace.h"
#include "scan/KeyBatch.h"
#include "scan/ScanTypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>

namespace keylens::scan {
class Ingest;
class Scanner;
} // namespace keylens::scan

namespace keylens::models {

class KeyTreeModel;

// One scan of one server, seen from the GUI thread: owns the scanner, the key store and the tree model
// over it, and moves batches from the first to the second without stalling the event loop.
//
// Batches are taken off the scanner's signal at once (that frees the worker to send more) and
// ingested in time slices of a few milliseconds per event-loop turn; the model hears about them every
// 100 ms. finished() comes after the last batch is in the store and the model.
class ScanSession : public QObject
{
    Q_OBJECT
public:
    explicit ScanSession(QObject* parent = nullptr);
    ~ScanSession() override;

    KeyTreeModel* model() const { return m_model; }
    const keyspace::Keyspace& keyspace() const { return *m_keyspace; }

    // A fresh store and a model reset, then a scan. A scan already running is cancelled.
    void start(const scan::ScanOptions& options, char delimiter);
    void pause();
    void resume();
    void cancel();

    bool isRunning() const;
    bool isPaused() const { return m_paused; }
    const scan::ScanOptions& options() const { return m_options; }
    const std::optional<scan::ScanProgress>& lastProgress() const { return m_progress; }
    const std::optional<scan::ScanSummary>& summary() const { return m_summary; }
    const std::optional<redis::ServerInfo>& serverInfo() const { return m_serverInfo; }

    // How long the GUI thread may spend ingesting per event-loop turn.
    static constexpr int IngestSliceMs = 4;
    static constexpr int PublishIntervalMs = 100;

Q_SIGNALS:
    void started();
    void serverInfoReady(const keylens::redis::ServerInfo& info);
    void progressChanged(const keylens::scan::ScanProgress& progress);
    void published(); // the model caught up with the store
    void finished(const keylens::scan::ScanSummary& summary);

private:
    void takeBatch(const scan::KeyBatch& batch);
    void ingestSlice();
    void publishNow();
    void finishIfDrained();

    scan::Scanner* m_scanner;
    KeyTreeModel* m_model;
    std::unique_ptr<keyspace::Keyspace> m_keyspace;
    std::unique_ptr<scan::Ingest> m_ingest; // into m_keyspace
    scan::ScanOptions m_options;
    std::deque<scan::KeyBatch> m_pending;
    std::size_t m_pendingIndex = 0; // entries of m_pending.front() already ingested
    QTimer m_ingestTimer;
    QTimer m_publishTimer;
    bool m_paused = false;
    bool m_ingestedSincePublish = false;
    std::optional<scan::ScanProgress> m_progress;
    std::optional<scan::ScanSummary> m_summary;
    std::optional<scan::ScanSummary> m_finishing; // the scanner is done; batches still being ingested
    std::optional<redis::ServerInfo> m_serverInfo;
};

} // namespace keylens::models
