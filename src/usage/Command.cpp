#include "usage/Command.h"

#include <QCommandLineParser>

#include <algorithm>

namespace keylens::usage {

void Command::addTo(QCommandLineParser& parser) const
{
    parser.setApplicationDescription(description);
    for (const Argument& argument : arguments)
        parser.addPositionalArgument(argument.name, argument.description, argument.syntax);
    parser.addOptions(allOptions());
}

QList<QCommandLineOption> Command::allOptions() const
{
    QList<QCommandLineOption> all = options;
    for (const OptionGroup& group : groups)
        all += group.options;
    return all;
}

QString Command::synopsis() const
{
    QStringList parts;
    if (!name.isEmpty())
        parts += name;
    for (const Argument& argument : arguments)
        parts += argument.syntax;
    parts += QStringLiteral("[options]");
    return parts.join(u' ');
}

bool Program::hasSubcommands() const
{
    return std::any_of(commands.begin(), commands.end(), [](const Command& c) { return !c.name.isEmpty(); });
}

const Command* Program::command(const QString& name) const
{
    for (const Command& c : commands) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

QList<OptionGroup> Program::sharedGroups() const
{
    QList<OptionGroup> groups;
    for (const Command& c : commands) {
        for (const OptionGroup& group : c.groups) {
            const bool known =
                std::any_of(groups.begin(), groups.end(), [&](const OptionGroup& g) { return g.title == group.title; });
            if (!known)
                groups += group;
        }
    }
    return groups;
}

QString Program::usageText() const
{
    int width = 0;
    for (const Command& c : commands)
        width = std::max(width, int(c.synopsis().size()));
    QString text = QStringLiteral("Usage: %1 <command> [options]\n\nCommands:\n").arg(name);
    for (const Command& c : commands)
        text += QStringLiteral("  %1   %2\n").arg(c.synopsis(), -width).arg(c.summary);
    text += QStringLiteral("\nRun '%1 <command> --help' for the options of a command, 'man %1' for all of them.\n")
                .arg(name);
    return text;
}

QString longestName(const QCommandLineOption& option)
{
    const QStringList names = option.names();
    return *std::max_element(names.begin(), names.end(),
                             [](const QString& a, const QString& b) { return a.size() < b.size(); });
}

QString dashedName(const QString& name)
{
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

QCommandLineOption commandHelpOption()
{
    return QCommandLineOption(QStringLiteral("help"), QStringLiteral("Show this help."));
}

} // namespace keylens::usage
