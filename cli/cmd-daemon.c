/*
 * deliberate daemon start|stop|status: run deliberated in the background
 * (with a pidfile and a log in $DELIBERATE_HOME/run) when no service
 * manager does it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "client.h"
#include "xmalloc.h"

static int
daemon_pid(void)
{
	struct json_object	*req, *rep, *pid;
	FILE			*f;
	int			 p = 0;

	req = cli_request("status");
	if (cli_call(req, 1000, &rep, 1) == EXIT_OK &&
	    json_object_object_get_ex(rep, "pid", &pid))
		p = json_object_get_int(pid);
	json_object_put(req);
	json_object_put(rep);
	if (p > 0)
		return p;
	if ((f = fopen(cli_paths.pidfile, "re")) != NULL) {
		if (fscanf(f, "%d", &p) != 1 || kill(p, 0) == -1)
			p = 0;
		fclose(f);
	}
	return p;
}

static int
answering(void)
{
	int	fd;

	if ((fd = client_connect(cli_paths.socket, 500)) < 0)
		return 0;
	close(fd);
	return 1;
}

static int
daemon_start(void)
{
	char		*prog, *logpath, *dir, fdarg[16], c;
	int		 pfd[2], logfd, devnull, n;
	struct pollfd	 p;
	pid_t		 pid;

	if (answering()) {
		printf("deliberated is already running (pid %d)\n",
		    daemon_pid());
		return EXIT_OK;
	}
	xasprintf(&dir, "%s/run", cli_paths.home);
	if (paths_mkdir_private(cli_paths.home, NULL) != 0 ||
	    paths_mkdir_private(dir, NULL) != 0) {
		cli_error("cannot create '%s': %s", dir, strerror(errno));
		free(dir);
		return EXIT_FAIL;
	}
	xasprintf(&logpath, "%s/deliberated.log", dir);
	free(dir);
	logfd = open(logpath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (logfd == -1 || pipe2(pfd, O_CLOEXEC) == -1) {
		cli_error("cannot open '%s': %s", logpath, strerror(errno));
		free(logpath);
		return EXIT_FAIL;
	}
	prog = cli_sibling("deliberated");
	if ((pid = fork()) == -1) {
		cli_error("cannot fork: %s", strerror(errno));
		return EXIT_FAIL;
	}
	if (pid == 0) {
		if (fork() != 0)
			_exit(0);
		setsid();
		devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, STDIN_FILENO);
		dup2(logfd, STDOUT_FILENO);
		dup2(logfd, STDERR_FILENO);
		dup2(pfd[1], 3);
		snprintf(fdarg, sizeof fdarg, "%d", 3);
		execl(prog, "deliberated", "--ready-fd", fdarg, (char *)NULL);
		fprintf(stderr, "deliberate: cannot run '%s': %s\n", prog,
		    strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	close(logfd);
	waitpid(pid, NULL, 0);
	p.fd = pfd[0];
	p.events = POLLIN;
	n = poll(&p, 1, 15000);
	if (n == 1 && read(pfd[0], &c, 1) == 1) {
		close(pfd[0]);
		printf("deliberated started (pid %d), log in '%s'\n",
		    daemon_pid(), logpath);
		free(logpath);
		free(prog);
		return EXIT_OK;
	}
	close(pfd[0]);
	cli_error("deliberated did not start; see '%s'", logpath);
	free(logpath);
	free(prog);
	return EXIT_FAIL;
}

static int
daemon_stop(void)
{
	struct timespec	ts = { 0, 20 * 1000 * 1000 };
	int		pid, i;

	if ((pid = daemon_pid()) <= 0) {
		printf("deliberated is not running\n");
		return EXIT_OK;
	}
	if (kill(pid, SIGTERM) == -1) {
		cli_error("cannot stop pid %d: %s", pid, strerror(errno));
		return EXIT_FAIL;
	}
	for (i = 0; i < 500; i++) {
		if (kill(pid, 0) == -1 && errno == ESRCH) {
			printf("deliberated stopped (pid %d)\n", pid);
			return EXIT_OK;
		}
		nanosleep(&ts, NULL);
	}
	cli_error("pid %d did not exit within 10 s", pid);
	return EXIT_FAIL;
}

/* The daemon subcommand. */
int
cmd_daemon(int argc, char **argv)
{
	char	 st_name[] = "status", *st_argv[] = { st_name, NULL };

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0))
		cli_help();
	if (argc != 2)
		cli_usage_error(argc < 2 ? "missing action" :
		    "too many arguments");
	if (strcmp(argv[1], "start") == 0)
		return daemon_start();
	if (strcmp(argv[1], "stop") == 0)
		return daemon_stop();
	if (strcmp(argv[1], "status") == 0)
		return cmd_status(1, st_argv);
	cli_usage_error("unknown action '%s'", argv[1]);
}
