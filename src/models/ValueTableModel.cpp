#include "models/ValueTableModel.h"

#include "keyspace/KeyEscape.h"
#include "models/ValueInspector.h"

namespace keylens::models {

namespace {
// A cell shows the start of a long element; the details below the table show all of it.
constexpr qsizetype CellBytes = 512;

QString cellText(const QByteArray& bytes)
{
    const QByteArray shown = keyspace::displayValue(QByteArrayView(bytes).first(std::min(bytes.size(), CellBytes)));
    return bytes.size() > CellBytes ? QString::fromUtf8(shown) + QStringLiteral("…") : QString::fromUtf8(shown);
}
} // namespace

ValueTableModel::ValueTableModel(ValueInspector* inspector, QObject* parent)
    : QAbstractTableModel(parent)
    , m_inspector(inspector)
{
    connect(inspector, &ValueInspector::pageReady, this, [this](const ValueInspector::Page& page) {
        if (page.request != m_request)
            return;
        m_loading = false;
        if (!page.error.isEmpty()) {
            m_error = page.error;
            m_done = true;
            Q_EMIT failed(page.error);
            stopFetchingToEnd();
            return;
        }
        takePage(page.page);
    });
}

void ValueTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_key.clear();
    m_type = keyspace::KeyType::Unknown;
    m_position.clear();
    m_expected = 0;
    m_request = 0;
    m_done = true;
    m_loading = false;
    m_fetchToEnd = false;
    m_error.clear();
    m_query = {};
    endResetModel();
}

void ValueTableModel::setKey(const QByteArray& key, keyspace::KeyType type, std::uint64_t expectedElements,
                             const inspect::ValueQuery& query)
{
    clear();
    m_key = key;
    m_type = type;
    m_expected = expectedElements;
    setQuery(query);
}

void ValueTableModel::setQuery(const inspect::ValueQuery& query)
{
    if (m_key.isEmpty())
        return;
    m_query = query;
    if (!inspect::canSearch(m_type))
        m_query.match.clear();
    beginResetModel();
    m_rows.clear();
    endResetModel();
    restart();
}

void ValueTableModel::restart()
{
    m_position.clear();
    m_error.clear();
    m_loading = false;
    m_fetchToEnd = false;
    m_request = 0; // an answer still on its way belongs to the old query
    m_done = false;
    fetchMore({});
}

void ValueTableModel::fetchToEnd(std::uint64_t maxRows)
{
    if (m_key.isEmpty() || m_done) {
        Q_EMIT reachedEnd();
        return;
    }
    m_fetchToEnd = true;
    m_fetchLimit = m_rows.size() + maxRows;
    fetchMore({});
}

void ValueTableModel::stopFetchingToEnd()
{
    if (!m_fetchToEnd)
        return;
    m_fetchToEnd = false;
    Q_EMIT reachedEnd();
}

void ValueTableModel::takePage(const inspect::ValuePage& page)
{
    if (!page.rows.empty()) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.rows.size()) - 1);
        m_rows.insert(m_rows.end(), page.rows.begin(), page.rows.end());
        endInsertRows();
    }
    m_position = page.nextPosition;
    m_done = page.done;
    Q_EMIT pageLoaded();
    // SCAN-style commands may answer a page with no elements and a non-zero cursor (a search through a big hash
    // does, page after page): keep going, or the view (which only asks again when it scrolls) would stall on an
    // empty table.
    const bool toEnd = m_fetchToEnd && m_rows.size() < m_fetchLimit;
    if (!m_done && (page.rows.empty() || toEnd))
        fetchMore({});
    else
        stopFetchingToEnd();
}

int ValueTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ValueTableModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return inspect::valueColumnNames(m_type).second.isEmpty() ? 1 : 2;
}

QVariant ValueTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || std::size_t(index.row()) >= m_rows.size())
        return {};
    const inspect::ValueRow& row = m_rows[std::size_t(index.row())];
    const QByteArray& bytes = index.column() == 0 ? row.first : row.second;
    switch (role) {
    case Qt::DisplayRole:
        return cellText(bytes);
    case Qt::ToolTipRole:
        return bytes.size() > CellBytes ? tr("%1 bytes").arg(bytes.size()) : QVariant();
    case RawBytesRole:
        return bytes;
    case Qt::TextAlignmentRole:
        if ((m_type == keyspace::KeyType::List && index.column() == 0) ||
            (m_type == keyspace::KeyType::ZSet && index.column() == 1))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant ValueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const auto names = inspect::valueColumnNames(m_type);
    return section == 0 ? names.first : names.second;
}

bool ValueTableModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && !m_done && !m_loading && !m_key.isEmpty();
}

void ValueTableModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    m_loading = true;
    m_request = m_inspector->requestPage(m_key, m_type, m_query, m_position, PageSize);
}

} // namespace keylens::models
