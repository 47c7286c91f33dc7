/* sh - the shell.
 *
 * Reads a line, parses it into a tree, runs it. The language:
 *     line     := pipeline { (';' | '&') pipeline }      '&' runs in background
 *     pipeline := command [ '|' pipeline ]
 *     command  := '(' line ')' { redir } | { word | redir }
 *     redir    := '<' word | '>' word | '>>' word
 * A word is quoted as in a POSIX shell (word()): '...' and "..." keep
 * spaces and symbols, a backslash escapes the next character (in "..."
 * only \ " $ `), and the quotes are removed. Nodes come from a fixed pool and words are copied, NUL-terminated, into a
 * per-line arena, so parsing never allocates. The top-level list runs in
 * the shell itself, one element at a time, so builtins (cd, exit) work in
 * `cd d; ls`; everything else runs in a forked child that never returns
 * (run()); a command not found in the current directory is tried in the
 * root. On the console the shell does job control (below: process
 * groups, ^Z, jobs/fg/bg/kill %N, "[1] pid" and "[1]+ Done"); otherwise
 * a background command is forked twice, so the shell reaps the first
 * child at once and init adopts the real job. `sh file` reads
 * commands from a file without printing the "$ " prompt (to stderr).
 * `sh -h`, another option, or more than one file prints the usage line.
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

enum { EXEC = 1, REDIR, PIPE, LIST, BACK };
enum { MAXARGS = 32, MAXNODES = 64, LINESZ = 512 };

struct cmd {
    int type;
    int argc;                /* EXEC */
    char* argv[MAXARGS + 1]; /* EXEC */
    struct cmd* left;        /* PIPE, LIST; the inner command of BACK, REDIR */
    struct cmd* right;       /* PIPE, LIST */
    char* file;              /* REDIR */
    int fd, mode, append;    /* REDIR */
    const char* src;         /* a top-level pipeline's text in the line (for job reports) */
    int srclen;
};

static struct cmd pool[MAXNODES];
static int npool;
static char arena[LINESZ * 2];
static int narena;
static char* ps;         /* parse cursor */
static const char* perr; /* first parse error, or 0 */

static const char kSpace[] = " \t\r\n\v";
static const char kSymbols[] = "<|>&;()";

/* ---- parsing ---------------------------------------------------------- */

static struct cmd* node(int type) {
    if (npool == MAXNODES) {
        perr = "line too complex";
        npool = 0; /* keep going on a scratch node; the line is rejected */
    }
    struct cmd* c = &pool[npool++];
    memset(c, 0, sizeof(*c));
    c->type = type;
    return c;
}

static void skip_space(void) {
    while (*ps && strchr(kSpace, *ps)) ps++;
}

/* Is the next token one of the characters in toks? */
static int peek(const char* toks) {
    skip_space();
    return *ps && strchr(toks, *ps);
}

static int at_end(void) {
    skip_space();
    return *ps == 0 || *ps == ')';
}

/* Consume a symbol; returns it ('+' for ">>"). */
static int symbol(void) {
    skip_space();
    int c = *ps++;
    if (c == '>' && *ps == '>') {
        ps++;
        c = '+';
    }
    return c;
}

/* Does a backslash escape c here (quote: the quote we are in, or 0)?
 * Outside quotes it escapes any character; inside "..." only \ " $ and `
 * (POSIX's list; this shell expands neither $ nor `); inside '...' none. */
static int escapes(char quote, char c) {
    if (c == 0 || quote == '\'') return 0;
    return quote == 0 || strchr("\\\"$`", c) != 0;
}

/* Consume a word and return a NUL-terminated copy with its quoting
 * removed, or 0 if none is next. A word ends at a space or symbol outside
 * quotes; '...' and "..." keep what they enclose as it is, spaces and
 * symbols included, and parts join: ab"c d"'e' is one word, "abc de";
 * '' is an empty word. A quote left open is a syntax error. */
static char* word(void) {
    skip_space();
    char* w = &arena[narena];
    int n = 0, any = 0;
    char quote = 0;
    while (*ps && (quote || (!strchr(kSpace, *ps) && !strchr(kSymbols, *ps)))) {
        char c = *ps++;
        any = 1;
        if ((c == '\'' || c == '"') && (quote == 0 || quote == c)) {
            quote = quote ? 0 : c;
            continue;
        }
        if (c == '\\' && escapes(quote, *ps)) c = *ps++;
        if (narena + n + 1 >= (int)sizeof(arena)) {
            perr = "line too long";
            return 0;
        }
        w[n++] = c;
    }
    if (quote) perr = "unterminated quote";
    if (!any || perr) return 0;
    w[n] = 0;
    narena += n + 1;
    return w;
}

static struct cmd* parse_line(void);

static struct cmd* parse_redir(struct cmd* inner) {
    int sym = symbol();
    struct cmd* r = node(REDIR);
    r->left = inner;
    r->file = word();
    if (r->file == 0 && !perr) perr = "missing file for redirection";
    r->fd = sym == '<' ? 0 : 1;
    r->mode = sym == '<' ? O_RDONLY : sym == '>' ? (O_WRONLY | O_CREATE | O_TRUNC) : (O_RDWR | O_CREATE);
    r->append = sym == '+';
    return r;
}

/* Wrap c in the redirections that follow; later ones are applied last. */
static struct cmd* parse_redirs(struct cmd* c, struct cmd** reds, int n) {
    for (int i = n - 1; i >= 0; i--) {
        reds[i]->left = c;
        c = reds[i];
    }
    return c;
}

static struct cmd* parse_exec(void) {
    struct cmd* c = node(EXEC);
    struct cmd* reds[8];
    int nreds = 0;
    while (!perr && !at_end() && !peek("|&;(")) {
        if (peek("<>")) {
            if (nreds == 8) {
                perr = "too many redirections";
                break;
            }
            reds[nreds++] = parse_redir(0);
        } else if (c->argc == MAXARGS) {
            perr = "too many arguments";
        } else {
            c->argv[c->argc++] = word();
        }
    }
    return parse_redirs(c, reds, nreds);
}

static struct cmd* parse_block(void) {
    symbol(); /* ( */
    struct cmd* c = parse_line();
    if (!peek(")")) {
        if (!perr) perr = "missing )";
        return c;
    }
    symbol();
    struct cmd* reds[8];
    int nreds = 0;
    while (!perr && peek("<>") && nreds < 8) reds[nreds++] = parse_redir(0);
    return parse_redirs(c, reds, nreds);
}

static struct cmd* parse_pipe(void) {
    struct cmd* c = peek("(") ? parse_block() : parse_exec();
    if (c->type == EXEC && c->argc == 0 && peek("|") && !perr) perr = "empty command in pipe";
    if (!perr && peek("|")) {
        symbol();
        struct cmd* p = node(PIPE);
        p->left = c;
        p->right = parse_pipe();
        if (p->right->type == EXEC && p->right->argc == 0 && !perr) perr = "empty command in pipe";
        return p;
    }
    return c;
}

/* A pipeline, remembering its text (src, srclen). */
static struct cmd* parse_pipe_text(void) {
    skip_space();
    const char* start = ps;
    struct cmd* c = parse_pipe();
    const char* end = ps;
    while (end > start && strchr(kSpace, end[-1])) end--;
    c->src = start;
    c->srclen = (int)(end - start);
    return c;
}

static struct cmd* parse_line(void) {
    struct cmd* c = parse_pipe_text();
    while (!perr && peek("&;")) {
        if (symbol() == '&') {
            struct cmd* b = node(BACK);
            b->left = c;
            c = b;
        }
        if (at_end()) break;
        struct cmd* l = node(LIST);
        l->left = c;
        l->right = parse_pipe_text();
        c = l;
    }
    return c;
}

static struct cmd* parse(char* line) {
    npool = narena = 0;
    perr = 0;
    ps = line;
    struct cmd* c = parse_line();
    skip_space();
    if (*ps && !perr) perr = "unexpected character";
    return c;
}

/* ---- running ---------------------------------------------------------- */

static int fork1(void) {
    int pid = fork();
    if (pid < 0) {
        perrorf("sh: fork failed");
        exit(1);
    }
    return pid;
}

static void run(struct cmd* c) __attribute__((noreturn));
static void jobs_exit(int status) __attribute__((noreturn));
static int job_builtin(struct cmd* c);

static void run_redir(struct cmd* c) {
    close(c->fd);
    if (open(c->file, c->mode) != c->fd) {
        perrorf("sh: cannot open %s", c->file);
        exit(1);
    }
    if (c->append) { /* no seek call: reading to the end moves the offset */
        char buf[512];
        while (read(c->fd, buf, sizeof(buf)) > 0) {}
    }
    run(c->left);
}

static void run_pipe(struct cmd* c) {
    int p[2];
    if (pipe(p) < 0) {
        perrorf("sh: pipe failed");
        exit(1);
    }
    if (fork1() == 0) {
        close(1);
        dup(p[1]);
        close(p[0]);
        close(p[1]);
        run(c->left);
    }
    if (fork1() == 0) {
        close(0);
        dup(p[0]);
        close(p[0]);
        close(p[1]);
        run(c->right);
    }
    close(p[0]);
    close(p[1]);
    wait(0);
    wait(0);
    exit(0);
}

static void run(struct cmd* c) {
    switch (c->type) {
        case EXEC: {
            if (c->argc == 0) exit(0);
            /* after `cd d`, "ls" is not here: exec_search tries "/ls" too */
            const int why = exec_search(c->argv);
            fprintf(2, "exec %s failed: %s\n", c->argv[0], strerror(why));
            exit(1);
        }
        case REDIR:
            run_redir(c);
        case PIPE:
            run_pipe(c);
        case LIST:
            if (fork1() == 0) run(c->left);
            wait(0);
            run(c->right);
        case BACK:
            if (fork1() == 0) run(c->left);
            exit(0);
    }
    exit(1);
}

/* `cd` alone goes home, as in Unix: the user's home from /etc/passwd, or
 * "/" for a user without an account. */
static void cd(struct cmd* c) {
    struct pwent e;
    const char* dir = c->argc > 1 ? c->argv[1] : getpwuid((unsigned)geteuid(), &e) ? e.home : "/";
    if (chdir(dir) < 0) perrorf("cannot cd %s", dir);
}

/* A builtin runs in the shell itself; returns 1 if c was one. */
static int builtin(struct cmd* c) {
    if (c->type != EXEC || c->argc == 0) return c->type == EXEC; /* an empty command is done */
    if (strcmp(c->argv[0], "cd") == 0) {
        cd(c);
        return 1;
    }
    if (strcmp(c->argv[0], "exit") == 0) jobs_exit(c->argc > 1 ? atoi(c->argv[1]) : 0);
    return job_builtin(c);
}

/* SIGINT's action: 0 default (terminate), 1 ignore. */
static void set_sigint(unsigned long handler) {
    struct ksigaction a = {handler, 0, 0};
    sigact(SIGINT, &a, 0);
}

/* Job control (docs/signals.md "Process groups and job control"): an
 * interactive shell on the console puts itself and then each command in a
 * process group of its own and gives the console's foreground to the
 * command while it runs (a background command never gets it), taking it
 * back when the command ends. The console then signals only the command:
 * ^C SIGINT, ^\ SIGQUIT, ^Z SIGTSTP. The shell ignores those and SIGTTIN
 * and SIGTTOU (it takes the console back from the background); a command
 * gets their defaults. tty is -1 when stdin is not the console (sh file,
 * a pipe): then no groups, as before. */
static int tty = -1;
static int shell_pgid, first_fg;
static const int kJobSignals[] = {SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU};
enum { MAXJOBS = 8, JOBTEXT = 60 };
enum { JOB_FREE = 0, JOB_RUNNING, JOB_STOPPED };
static struct job {
    int state;
    int pgid;
    int seq; /* for the current job: the newest */
    char text[JOBTEXT + 1];
} jobs[MAXJOBS + 1];
static int job_seq;

static void job_signals(unsigned long handler) {
    for (unsigned i = 0; i < sizeof(kJobSignals) / sizeof(kJobSignals[0]); i++) {
        struct ksigaction a = {handler, 0, 0};
        sigact(kJobSignals[i], &a, 0);
    }
}

static void jobs_init(void) {
    first_fg = tcgetpgrp(0);
    if (first_fg < 0) return;
    job_signals(SIG_IGN);
    setpgid(0, 0); /* fails only for a session leader, whose group is its own already */
    shell_pgid = getpgid(0);
    if (tcsetpgrp(0, shell_pgid) == 0) tty = 0;
}

/* Leaving: the console goes back to the group that had it when this shell started. */
static void jobs_exit(int status) {
    if (tty >= 0) tcsetpgrp(tty, first_fg);
    /* A stopped job would never be continued: SIGHUP and SIGCONT, what
     * POSIX has the kernel send an orphaned stopped group. */
    for (int j = 1; j <= MAXJOBS; j++) {
        if (jobs[j].state != JOB_STOPPED) continue;
        sigsend(-jobs[j].pgid, SIGHUP);
        sigsend(-jobs[j].pgid, SIGCONT);
    }
    exit(status);
}

/* The jobs: each command the job-control shell runs is one process group
 * whose leader is the shell's child (a pipeline's members are that
 * child's children, in its group). A job is Running or Stopped until the
 * shell reaps its leader: a foreground one in wait_foreground, a
 * background one in job_reap before the next prompt ("[1]+ Done cmd").
 * Job numbers are the lowest free, from 1; the current job ('+', what fg
 * and bg take without %N) is the newest. */

static int job_add(int pgid, struct cmd* c) {
    for (int j = 1; j <= MAXJOBS; j++) {
        if (jobs[j].state != JOB_FREE) continue;
        int n = c->srclen < JOBTEXT ? c->srclen : JOBTEXT;
        memmove(jobs[j].text, c->src ? c->src : "", n);
        jobs[j].text[n] = 0;
        jobs[j].state = JOB_RUNNING;
        jobs[j].pgid = pgid;
        jobs[j].seq = ++job_seq;
        return j;
    }
    return 0; /* the table is full: it runs, unlisted */
}

static int job_current(void) {
    int best = 0;
    for (int j = 1; j <= MAXJOBS; j++)
        if (jobs[j].state != JOB_FREE && (best == 0 || jobs[j].seq > jobs[best].seq)) best = j;
    return best;
}

static int job_of_pid(int pid) {
    for (int j = 1; j <= MAXJOBS; j++)
        if (jobs[j].state != JOB_FREE && jobs[j].pgid == pid) return j;
    return 0;
}

static void job_print(int j, const char* what) {
    fprintf(2, "[%d]%c %s  %s\n", j, j == job_current() ? '+' : ' ', what, jobs[j].text);
}

/* How a reaped or changed job is reported (Linux's status word). */
static void job_report(int j, int st) {
    char what[24];
    if (WIFSTOPPED(st)) {
        jobs[j].state = JOB_STOPPED;
        job_print(j, "Stopped");
        return;
    }
    if (WIFCONTINUED(st)) {
        jobs[j].state = JOB_RUNNING;
        return;
    }
    if (WIFSIGNALED(st)) {
        int s = WTERMSIG(st);
        const char* name = s < kNamedSignals && kSignalNames[s] ? kSignalNames[s] : "?";
        strcpy(what, "Killed (SIG");
        strcpy(what + strlen(what), name);
        strcpy(what + strlen(what), ")");
    } else if (WEXITSTATUS(st) == 0) {
        strcpy(what, "Done");
    } else {
        strcpy(what, "Exit ");
        int e = WEXITSTATUS(st), k = (int)strlen(what);
        if (e >= 100) what[k++] = (char)('0' + e / 100);
        if (e >= 10) what[k++] = (char)('0' + e / 10 % 10);
        what[k++] = (char)('0' + e % 10);
        what[k] = 0;
    }
    job_print(j, what);
    jobs[j].state = JOB_FREE;
}

/* Collect and report every change of a background job, without waiting. */
static void job_reap(void) {
    int st, w;
    while ((w = waitpid(-1, &st, WNOHANG | WUNTRACED | WCONTINUED)) > 0) {
        int j = job_of_pid(w);
        if (j) job_report(j, st);
    }
}

/* Wait for job j (leader pid) in the foreground until it ends or stops;
 * then the console is the shell's again. A ^C's end is not reported (the
 * ^C is on the screen), nor SIGPIPE's (how `producer | head` ends, as
 * bash has it); a stop is ("[1]+ Stopped cmd"). */
static void wait_foreground(int j, int pid) {
    int st = 0;
    while (waitpid(pid, &st, WUNTRACED) < 0 && errno() == EINTR) {}
    tcsetpgrp(tty, shell_pgid);
    if (j == 0) return;
    if (WIFSTOPPED(st)) {
        job_report(j, st);
        return;
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) != SIGINT && WTERMSIG(st) != SIGPIPE) job_report(j, st);
    jobs[j].state = JOB_FREE;
}

/* "%N", or none: the job meant (0: no such job, reported). */
static int job_arg(struct cmd* c, int i) {
    int j = 0;
    if (c->argc <= i) j = job_current();
    else if (c->argv[i][0] == '%' && parse_int(c->argv[i] + 1, &j) && (j < 1 || j > MAXJOBS)) j = 0;
    if (j == 0 || jobs[j].state == JOB_FREE) {
        fprintf(2, "%s: %s: no such job\n", c->argv[0], c->argc > i ? c->argv[i] : "current");
        return 0;
    }
    return j;
}

/* kill [-SIG | -s SIG] %N|pid...: the shell's own when a job is named
 * (kill %1); -1: not ours (it runs the kill program). */
static int job_kill(struct cmd* c) {
    int first = 1, sig = SIGKILL, any = 0, pid;
    for (int i = 1; i < c->argc; i++) any |= c->argv[i][0] == '%';
    if (!any) return -1;
    if (c->argc > 2 && strcmp(c->argv[1], "-s") == 0) {
        sig = signal_number(c->argv[2]);
        first = 3;
    } else if (c->argc > 1 && c->argv[1][0] == '-') {
        sig = signal_number(c->argv[1] + 1);
        first = 2;
    }
    if (sig == 0 || first >= c->argc) {
        fprintf(2, "usage: kill [-SIG | -s SIG] pid|%%N...\n");
        return 1;
    }
    for (int i = first; i < c->argc; i++) {
        int j = 0, r;
        if (c->argv[i][0] == '%') {
            if (!(j = job_arg(c, i))) continue;
            r = sigsend(-jobs[j].pgid, sig);
            /* a stopped job would keep the signal pending: continue it (bash's rule) */
            if (r == 0 && jobs[j].state == JOB_STOPPED && sig != SIGSTOP && sig != SIGTSTP)
                sigsend(-jobs[j].pgid, SIGCONT);
        } else {
            r = parse_int(c->argv[i], &pid) ? sigsend(pid, sig) : -1;
        }
        if (r < 0) perrorf("kill: %s", c->argv[i]);
    }
    return 1;
}

/* jobs, fg [%N], bg [%N], kill ... %N: 1 if c was one of them. */
static int job_builtin(struct cmd* c) {
    if (tty < 0) return 0;
    const char* name = c->argv[0];
    if (strcmp(name, "kill") == 0) return job_kill(c) > 0;
    if (strcmp(name, "jobs") == 0) {
        job_reap();
        for (int j = 1; j <= MAXJOBS; j++)
            if (jobs[j].state != JOB_FREE) job_print(j, jobs[j].state == JOB_STOPPED ? "Stopped" : "Running");
        return 1;
    }
    int fg = strcmp(name, "fg") == 0;
    if (!fg && strcmp(name, "bg") != 0) return 0;
    int j = job_arg(c, 1);
    if (j == 0) return 1;
    jobs[j].seq = ++job_seq; /* it becomes the current job */
    if (fg) {
        /* the console first: a ^C typed once the line shows must reach the job */
        tcsetpgrp(tty, jobs[j].pgid);
        fprintf(2, "%s\n", jobs[j].text);
    } else {
        fprintf(2, "[%d]+ %s &\n", j, jobs[j].text);
    }
    if (jobs[j].state == JOB_STOPPED) sigsend(-jobs[j].pgid, SIGCONT);
    jobs[j].state = JOB_RUNNING;
    if (fg) wait_foreground(j, jobs[j].pgid);
    return 1;
}

static void run_top(struct cmd* c) {
    if (c->type == LIST) {
        run_top(c->left);
        run_top(c->right);
        return;
    }
    if (builtin(c)) return;
    int pid = fork();
    if (pid < 0) { /* the shell itself survives a full table or memory */
        perrorf("sh: fork failed");
        return;
    }
    if (pid == 0) {
        if (tty >= 0) { /* both sides set the group, so it is set before either goes on */
            setpgid(0, 0);
            if (c->type != BACK) tcsetpgrp(tty, getpid());
            job_signals(SIG_DFL);
            if (c->type == BACK) run(c->left); /* the shell's own child: a job it reports */
        } else if (c->type != BACK) {
            /* Without job control a foreground command takes ^C's SIGINT
             * again; a background one keeps ignoring it, as in the Bourne
             * shell (docs/signals.md). */
            set_sigint(0);
        }
        run(c);
    }
    if (tty < 0) {
        int w;
        while ((w = wait(0)) >= 0 && w != pid) {}
        return;
    }
    setpgid(pid, pid);
    const int j = job_add(pid, c->type == BACK ? c->left : c);
    if (c->type == BACK) {
        if (j) fprintf(2, "[%d] %d\n", j, pid);
        return;
    }
    tcsetpgrp(tty, pid);
    wait_foreground(j, pid);
}

static int getcmd(char* buf, int n, int prompt) {
    if (tty >= 0) job_reap();
    if (prompt) write(2, "$ ", 2);
    memset(buf, 0, n);
    gets(buf, n);
    return buf[0] == 0 ? -1 : 0;
}

int main(int argc, char* argv[]) {
    static char line[LINESZ];
    int fd;
    /* Make sure descriptors 0, 1 and 2 are open. */
    while ((fd = open("console", O_RDWR)) >= 0) {
        if (fd >= 3) {
            close(fd);
            break;
        }
    }
    static const char usage[] = "sh [file]";
    usage_no_options(argc, argv, usage);
    if (argc > 2) usage_exit(usage, 1);
    int prompt = 1;
    if (argc > 1) {
        close(0);
        if (open(argv[1], O_RDONLY) != 0) {
            perrorf("sh: cannot open %s", argv[1]);
            exit(1);
        }
        prompt = 0;
    }
    if (prompt) set_sigint(1); /* ^C (kernel/dev/console.cc) ends the command, not the shell */
    if (prompt) jobs_init();
    while (getcmd(line, sizeof(line), prompt) >= 0) {
        struct cmd* c = parse(line);
        if (perr) {
            fprintf(2, "sh: syntax error: %s\n", perr);
            continue;
        }
        run_top(c);
    }
    jobs_exit(0);
}
