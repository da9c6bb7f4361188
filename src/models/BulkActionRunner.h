#pragma once

#include "base/JobRunner.h"
#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "redis/ConnectionOptions.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace keylens::models {

// A bulk action's work on the server, each step on a job thread with a connection of its own: how many of the
// selected keys changed since the scan (for the preview), then the action itself, with its progress, and stopped
// between batches on cancel() so that the summary stays exact.
class BulkActionRunner : public QObject
{
    Q_OBJECT

public:
    explicit BulkActionRunner(redis::ConnectionOptions connection, QObject* parent = nullptr);
    ~BulkActionRunner() override; // cancels what runs, and waits for it

    // checked() follows, in words.
    void check(const edit::KeySelection& selection);
    // progress() as it goes, ended() once, whatever happened.
    void run(const edit::BulkRequest& request);
    // Stops the run after the batch on the wire.
    void cancel() { m_cancel->store(true); }

Q_SIGNALS:
    void checked(const QString& text);
    void progress(std::uint64_t processed);
    void ended(const keylens::edit::BulkSummary& summary);

private:
    redis::ConnectionOptions m_connection;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    base::JobRunner m_jobs{QStringLiteral("keylens-bulk")};
};

} // namespace keylens::models
