#include "models/EndOfScan.h"

#include "base/SideTask.h"
#include "lint/Linter.h"
#include "lint/ValueShape.h"
#include "models/KeyTreeModel.h"
#include "models/SessionStore.h"

namespace keylens::models {

EndOfScan::EndOfScan(SessionStore& store, QObject* parent)
    : QObject(parent)
    , m_store(store)
{}

EndOfScan::~EndOfScan()
{
    abandon();
}

void EndOfScan::start(const scan::ScanOptions& options, const std::optional<scan::ScanSummary>& finishing,
                      std::function<void(const std::atomic<bool>* cancel)> beside)
{
    auto judgement = std::make_unique<lint::Judgement>();
    lint::Judgement* result = judgement.get();
    const lint::Linter* linter = m_store.linter.get();
    const keyspace::Keyspace* store = m_store.keys.get();
    m_judgement = std::move(judgement);
    m_bigKeyLengths = {};
    m_delimiterUses = {};
    // The end of a scan as the CLI's (inspect::judgeBesideLengths): what names and types cannot tell a library's
    // layout by and the big keys' lengths, asked on the worker. Not of a server that failed the scan (its connect
    // timeout would hold a rescan that waits for this thread).
    const bool serverAnswered = finishing && !finishing->error;
    // The role evidence's few values per pattern: read on the worker, as the library sets are.
    m_store.linter->setValueSource(finishing ? inspect::valueSourceFor(options, *finishing, serverAnswered)
                                             : lint::ValueSource());
    m_judging.start(
        [linter, store, result, lengths = &m_bigKeyLengths, uses = &m_delimiterUses, beside = std::move(beside),
         server = options.connection, serverAnswered, touching = inspect::touchingFor(options),
         fromFile = !options.rdbFile.isEmpty(),
         fileLengths = finishing && !options.rdbFile.isEmpty() ? finishing->knownLengths : nullptr,
         cancel = &m_judging.cancelFlag()] {
            base::SideTask besides([&] {
                if (beside)
                    beside(cancel);
            });
            *lengths = inspect::judgeBesideLengths(
                *store, serverAnswered && !fromFile ? &server : nullptr, touching, std::nullopt,
                [&](const lint::SetMembers& members) { *result = linter->judge(*store, members); }, cancel,
                fileLengths.get());
            *uses = lint::otherDelimitersUsed(*store); // a pass over every segment: not on the GUI thread
        },
        [this] {
            // In slices as long as an ingest's: recording a verdict adds to its ancestors' counts, a few hundred
            // nanoseconds, and a big keyspace has hundreds of thousands of them.
            m_verdictSlices.start(
                [this](std::size_t verdicts) { return m_store.linter->apply(*m_store.keys, *m_judgement, verdicts); },
                // The final publish in an event of its own: at ten million keys it copies the biggest parent's rows
                // for the worker's sort (25 ms), which after a whole slice of verdicts made one stall of 30-90 ms.
                [this] {
                    m_finalPublish.post([this] {
                        m_store.lettingGo.dispose(std::move(m_judgement)); // a verdict a key at worst, in pages
                        Q_EMIT verdictsRecorded();
                    });
                });
        });
}

void EndOfScan::abandon()
{
    m_judging.cancel(); // it reads the store; a few hundred milliseconds at most
    m_verdictSlices.cancel();
    m_finalPublish.cancel();
    m_store.lettingGo.dispose(std::move(m_judgement));
}

void EndOfScan::forgetScan()
{
    abandon();
    m_lengthsNotice.clear();
}

void EndOfScan::recordBigKeyLengths()
{
    // The tree shows them too. What could not be checked is said.
    const inspect::BigKeyLengths lengths = std::exchange(m_bigKeyLengths, {});
    for (std::size_t i = 0; i < lengths.lengths.size() && i < lengths.candidates.nodes.size(); ++i)
        if (const std::optional<std::uint64_t> length = lengths.lengths[i])
            m_store.model->setLength(lengths.candidates.nodes[i], *length);
    m_lengthsNotice = inspect::recordBigKeyLengths(*m_store.keys, *m_store.linter, lengths);
}

QStringList EndOfScan::notices() const
{
    QStringList notices(m_store.linter->notices().begin(), m_store.linter->notices().end());
    if (!m_lengthsNotice.isEmpty())
        notices << m_lengthsNotice;
    return notices;
}

} // namespace keylens::models
