#include "usage/ManPage.h"

namespace keylens::usage {

namespace {

// Text for roff: a backslash is an escape, a line that starts with '.' or '\'' is a request, and a '-'
// that starts a word is an option a reader copies, so it must stay a minus sign (\-), not a hyphen.
QString escaped(const QString& text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\\')
            out += QStringLiteral("\\e");
        else if (c == u'-' &&
                 (i == 0 || text[i - 1] == u' ' || text[i - 1] == u'-' || text[i - 1] == u'(' || text[i - 1] == u'\''))
            out += QStringLiteral("\\-");
        else
            out += c;
    }
    return out;
}

// One line of text in the page: never starting with a control character.
QString line(const QString& text)
{
    const QString e = escaped(text);
    if (e.startsWith(u'.') || e.startsWith(u'\''))
        return QStringLiteral("\\&") + e + u'\n';
    return e + u'\n';
}

QString paragraphs(const QString& text)
{
    QString out;
    const QStringList parts = text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += QStringLiteral(".PP\n");
        out += line(parts[i].simplified());
    }
    return out;
}

QString optionItem(const QCommandLineOption& option)
{
    QStringList names;
    for (const QString& name : option.names())
        names += QStringLiteral("\\fB%1\\fR").arg(escaped(dashedName(name)));
    QString head = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        head += QStringLiteral(" \\fI%1\\fR").arg(escaped(option.valueName()));
    return QStringLiteral(".TP\n") + head + u'\n' + line(option.description());
}

QString optionList(const QList<QCommandLineOption>& options)
{
    QString out;
    for (const QCommandLineOption& option : options) {
        if (!(option.flags() & QCommandLineOption::HiddenFromHelp))
            out += optionItem(option);
    }
    return out;
}

QString entries(const QString& heading, const QList<Entry>& list, bool termInBold = true)
{
    if (list.isEmpty())
        return {};
    QString out = QStringLiteral(".SH \"%1\"\n").arg(heading);
    for (const Entry& entry : list) {
        out += QStringLiteral(".TP\n");
        out += termInBold ? QStringLiteral("\\fB%1\\fR\n").arg(escaped(entry.term)) : line(entry.term);
        out += line(entry.text);
    }
    return out;
}

QString commandSection(const Command& command, const QString& program)
{
    QString out;
    if (!command.name.isEmpty())
        out += QStringLiteral(".SS \"%1 %2\"\n").arg(escaped(program), escaped(command.synopsis()));
    out += paragraphs(command.description);
    for (const Argument& argument : command.arguments)
        out += QStringLiteral(".TP\n\\fI%1\\fR\n").arg(escaped(argument.syntax)) + line(argument.description);
    out += optionList(command.options);
    if (!command.groups.isEmpty()) {
        QStringList titles;
        for (const OptionGroup& group : command.groups)
            titles += group.title.toLower();
        out += QStringLiteral(".PP\n") +
               line(QStringLiteral("Also takes the %1 below.").arg(titles.join(QStringLiteral(", "))));
    }
    return out;
}

} // namespace

QByteArray manPage(const Program& program, const QString& version, const QString& date)
{
    QString out;
    out += QStringLiteral(".\\\" Generated from the program's own command-line definitions; do not edit.\n");
    out += QStringLiteral(".TH \"%1\" 1 \"%2\" \"Keylens %3\" \"User Commands\"\n")
               .arg(escaped(program.name.toUpper()), date, version);
    out += QStringLiteral(".nh\n"); // URIs and option names must not break at a hyphen
    out += QStringLiteral(".SH NAME\n%1 \\- %2\n").arg(escaped(program.name), escaped(program.summary));

    out += QStringLiteral(".SH SYNOPSIS\n");
    for (qsizetype i = 0; i < program.commands.size(); ++i) {
        if (i > 0)
            out += QStringLiteral(".br\n");
        out += QStringLiteral("\\fB%1\\fR %2\n").arg(escaped(program.name), escaped(program.commands[i].synopsis()));
    }
    out += QStringLiteral(".br\n\\fB%1\\fR \\-\\-help | \\-\\-version\n").arg(escaped(program.name));

    out += QStringLiteral(".SH DESCRIPTION\n") + paragraphs(program.description);
    if (program.hasSubcommands()) {
        out += QStringLiteral(".SH COMMANDS\n");
        out += line(QStringLiteral("Every command also takes:"));
        out += optionItem(commandHelpOption());
        for (const Command& command : program.commands)
            out += commandSection(command, program.name);
    } else {
        out += QStringLiteral(".SH OPTIONS\n");
        for (const Command& command : program.commands)
            out += commandSection(command, program.name);
    }
    for (const OptionGroup& group : program.sharedGroups())
        out += QStringLiteral(".SH \"%1\"\n").arg(escaped(group.title.toUpper())) + optionList(group.options);

    out += entries(QStringLiteral("EXIT STATUS"), program.exitCodes);
    out += entries(QStringLiteral("ENVIRONMENT"), program.environment);
    out += entries(QStringLiteral("FILES"), program.files, false);
    if (!program.examples.isEmpty()) {
        out += QStringLiteral(".SH EXAMPLES\n");
        for (const Entry& example : program.examples)
            out += QStringLiteral(".PP\n") + line(example.text) + QStringLiteral(".PP\n.RS\n.nf\n") +
                   line(example.term) + QStringLiteral(".fi\n.RE\n");
    }
    if (!program.seeAlso.isEmpty()) {
        QStringList references;
        for (const QString& reference : program.seeAlso) {
            const qsizetype open = reference.indexOf(u'(');
            references += QStringLiteral("\\fB%1\\fR%2").arg(escaped(reference.left(open)), reference.mid(open));
        }
        out += QStringLiteral(".SH \"SEE ALSO\"\n") + references.join(QStringLiteral(",\n")) + u'\n';
    }
    return out.toUtf8();
}

} // namespace keylens::usage
