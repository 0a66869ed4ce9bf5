import { codedError } from '../core/errors/coded-error.ts';

/** A simulation could not be set up: the repository is not a git checkout, the payload names no repository, … */
export class SimulationSetupError extends codedError('SimulationSetupError', 'simulation_setup') {}
