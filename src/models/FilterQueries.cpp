#include "models/FilterQueries.h"

#include "keyspace/Keyspace.h"
#include "models/KeyspaceView.h"

namespace keylens::models {

keyspace::KeyFilter resolveFilter(const KeyspaceView& keyspace, QByteArrayView text, keyspace::FilterMode wanted,
                                  keyspace::KeyGlob::Case sensitivity)
{
    return keyspace::resolveFilter(text, wanted, sensitivity, keyspace.store());
}

QStringList keyCompletions(const KeyspaceView& keyspace, QByteArrayView typed, int most)
{
    QStringList names;
    const keyspace::Keyspace* store = keyspace.store();
    if (!store || store->keyCount() == 0)
        return names;
    const keyspace::Delimiters& delimiters = store->delimiters();
    qsizetype cut = typed.size() - 1;
    while (cut >= 0 && !delimiters.contains(typed[cut]))
        --cut;
    const QByteArrayView prefix = typed.first(cut + 1);
    const QByteArrayView partial = typed.sliced(cut + 1);
    const keyspace::NodeId parent = cut < 0 ? keyspace::RootNode : store->find(typed.first(cut));
    if (parent == keyspace::InvalidNode)
        return names;
    // With several delimiters, `a/` goes on to the children of `a` that follow a '/'.
    const char joiner = cut < 0 || delimiters.isSingle() ? 0 : typed[cut];
    for (keyspace::NodeId child = store->firstChild(parent); child != keyspace::InvalidNode && names.size() < most;
         child = store->nextSibling(child)) {
        const QByteArrayView segment = store->segment(child);
        if (!segment.startsWith(partial) || (joiner != 0 && store->joiner(child) != joiner))
            continue;
        const QString path = QString::fromUtf8(prefix.toByteArray() + segment.toByteArray());
        if (store->isKey(child))
            names << path;
        if (store->hasChildren(child)) {
            const keyspace::NodeId first = store->firstChild(child);
            const char next =
                store->hasMixedJoiners(child) || delimiters.isSingle() ? delimiters.primary() : store->joiner(first);
            names << path + QLatin1Char(next);
        }
    }
    names.sort();
    return names;
}

} // namespace keylens::models
